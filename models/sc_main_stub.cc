// libsystemc's main() calls sc_main(); every binary linking libsystemc needs
// one. warptlm's binaries have their own main() (or are Python extensions) and
// elaborate and call sc_start() themselves, so this one is never reached; it
// says so if it somehow is.
#include <cstdio>

extern "C" int sc_main(int, char*[]) {  // SystemC declares it extern "C"
  std::fprintf(stderr, "warptlm: sc_main is not an entry point of this binary\n");
  return 1;
}

// Sanitizer builds: LeakSanitizer's tracer faults on the guard pages of
// SystemC's QuickThreads coroutine stacks, so every binary linking SystemC
// (this object comes with it) runs without leak detection; ASAN_OPTIONS can
// still override. docs/ARCHITECTURE.md, "Sanitizer builds".
#if defined(__has_feature)
#if __has_feature(address_sanitizer) && !defined(__SANITIZE_ADDRESS__)
#define __SANITIZE_ADDRESS__ 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
#endif
