/* opens: not an escape but a cost probe (BenchmarkOpens): opens and closes
   its input argv[1] argv[2] times, as CUDA's start opens many files, each
   of which the supervisor checks. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    int n = atoi(argv[2]);
    for (int i = 0; i < n; i++) {
        int fd = open(argv[1], O_RDONLY);
        if (fd < 0) {
            perror(argv[1]);
            return 1;
        }
        close(fd);
    }
    return 0;
}
