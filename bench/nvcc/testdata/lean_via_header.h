// A header that leans on <cmath> having brought in <limits> (as the full
// host headers do): with the lean headers it fails, in this file.
#include <cmath>

static inline float lean_via_header_big() { return std::numeric_limits<float>::max(); }
