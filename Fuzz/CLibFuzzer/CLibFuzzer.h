// libFuzzer's driver entry point (compiler-rt, FuzzerInterface.h), declared here because the
// toolchain ships no header for it. It is linked by `-sanitize=fuzzer`.
//
// Why not libFuzzer's own `main`: SwiftPM links every executable target with
// `--defsym main=<Module>_main`, so the `main` in libclang_rt.fuzzer is never used. The
// targets' main.swift calls this driver instead, with the same arguments.
#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

#endif
