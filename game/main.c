/* placeholder until the app lands */
int main(void) { return 0; }
