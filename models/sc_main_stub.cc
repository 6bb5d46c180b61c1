// libsystemc's main() calls sc_main(); every binary linking libsystemc needs
// one. warptlm's binaries have their own main() (or are Python extensions) and
// elaborate and call sc_start() themselves, so this one is never reached; it
// says so if it somehow is.
#include <cstdio>

extern "C" int sc_main(int, char*[]) {  // SystemC declares it extern "C"
  std::fprintf(stderr, "warptlm: sc_main is not an entry point of this binary\n");
  return 1;
}
