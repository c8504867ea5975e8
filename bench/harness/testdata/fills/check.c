/* TestFillInRanges: draws every input of every configuration of the fills
   task with cp_fill, checks that cp_fill_par with 1 to 9 threads draws the
   same bytes, and prints an FNV-1a hash of each input, which sums.golden
   pins (the streams as they were before inputs were drawn in ranges: a
   change there would make recorded seeds reproduce other inputs). */
#include "harness.h"

static unsigned long long fnv(const unsigned char *p, size_t n) {
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

int main(void) {
    for (int c = 0; c < NCONFIGS; c++)
        for (int p = 0; p < NPARAMS; p++) {
            if (!cp_is_array(p) || !cp_is_input(p)) continue;
            size_t b = cp_bytes(c, p);
            unsigned char *one = malloc(b + 1), *par = malloc(b + 1);
            cp_fill(one, c, p, 12345678901234567ULL);
            for (int t = 1; t <= 9; t++) {
                memset(par, 0, b);
                cp_fill_par(par, c, p, 12345678901234567ULL, t);
                if (memcmp(one, par, b)) {
                    printf("%s %s: %d threads draw other values than one pass\n", cp_config_names[c], cp_param_names[p], t);
                    return 1;
                }
            }
            printf("%s %s %016llx\n", cp_config_names[c], cp_param_names[p], fnv(one, b));
            free(one);
            free(par);
        }
    return 0;
}
