#include <cstdio>
int main() { std::puts("nsh"); return 0; }
