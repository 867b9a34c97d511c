#include <cstdio>
int main() { std::puts("npusim: under construction"); return 0; }
