// Prints the environment variables named in argv.
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *v = getenv(argv[i]);
        printf("%s=%s\n", argv[i], v ? v : "(unset)");
    }
    return 0;
}
