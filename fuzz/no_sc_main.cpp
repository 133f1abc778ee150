// libsystemc.so refers to the user's sc_main; these targets only parse configuration and never
// elaborate, and libFuzzer's main runs them, so this one is never called.
extern "C" int sc_main(int, char*[]) { return 0; }
