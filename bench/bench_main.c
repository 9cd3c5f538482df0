/* placeholder until the benchmark harness lands */
int main(void) { return 0; }
