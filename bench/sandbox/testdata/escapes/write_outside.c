// Writes a file outside its folder (argv[1]) and reports whether it could.
#include <stdio.h>
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "w");
    if (!f) { perror(argv[1]); return 0; }
    fputs("escaped\n", f);
    fclose(f);
    printf("WROTE %s\n", argv[1]);
    return 0;
}
