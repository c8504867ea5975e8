// An honest candidate: reads its input, writes into its own folder (its
// working folder) and a temporary file (TMPDIR is its folder), writes its
// records, starts a thread. Usage: honest INPUT
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *work(void *arg) { return arg; }

int main(int argc, char **argv) {
    char buf[64] = {0};
    FILE *in = fopen(argv[1], "r");
    if (!in || !fgets(buf, sizeof buf, in)) { perror("input"); return 1; }
    fclose(in);
    FILE *out = fopen("out.txt", "w");
    if (!out || fputs(buf, out) < 0 || fclose(out)) { perror("out.txt"); return 1; }
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/tmp-XXXXXX", getenv("TMPDIR"));
    int fd = mkstemp(tmpl);
    if (fd < 0) { perror("mkstemp"); return 1; }
    close(fd);
    unlink(tmpl);
    pthread_t th;
    if (pthread_create(&th, NULL, work, NULL) || pthread_join(th, NULL)) { fprintf(stderr, "thread\n"); return 1; }
    dprintf(3, "{\"config\":0,\"seed\":\"a\"}\n");
    return 0;
}
