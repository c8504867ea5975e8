// Calls fork through the 32-bit system call entry (int 0x80), whose
// numbers a 64-bit filter does not know: i386 fork is 2.
#include <stdio.h>
int main(void) {
#if defined(__x86_64__)
    long ret;
    __asm__ volatile("int $0x80" : "=a"(ret) : "a"(2L) : "memory");
    printf("int 0x80 fork returned %ld\n", ret);
#endif
    return 0;
}
