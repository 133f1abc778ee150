#!/usr/bin/env bash
# The sanitizer pass of CI: builds the whole test suite and the fuzz targets with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer (the "sanitize" preset, build-sanitize/), runs
# the tests and a short fixed-seed run of every fuzz target (label "fuzz"; fuzz/run.sh).
# ASAN_OPTIONS and UBSAN_OPTIONS come from the test preset (CMakePresets.json):
# detect_stack_use_after_return=0 because SystemC's module-name stack breaks on ASan's fake
# stacks (with it on, sc_tests warn W509 "module construction not properly completed" and nest
# modules under the wrong parent); leaks, init order and string checks stay on.
# SystemC's coroutines and ASan: tlm/sanitizer_stack.h (why LeakSanitizer's tracer crashed at the
# end of some tests, and exceptions in SC_METHODs made false stack-buffer-overflows).
# Test selection: the suite without the entries that replay, many times over, code the rest already
# runs under the sanitizers (SANITIZE_EXCLUDE below). Measured on this 2-core machine (2026-11-28)
# the whole suite took 4,880 CPU seconds under the sanitizers (41 min of CI at 2 jobs); the
# 43 entries left out (31 of the C++ suite, the 12 Python tools' tests) 3,490 of them:
#   the firmware image on the ISS, every FTL family (1,040 s; the ISS stays covered by the
#   bad-block/read-error image tests, the refused ISS configurations and the ISS waveform),
#   observers-do-not-perturb per FTL (520 s: the same run twice), the power-cut matrix of 13 FTLs x
#   3 cuts (384 s; the 20-cut test stays), the reproductions' quick run and the soak (600 s, Python
#   driving ssdsim), paced GC and the channel/die throughput bounds (timing claims, 380 s), the
#   hybrids' merge marathons unit and timed (670 s; every FTL still merges under the bad-block,
#   read-error, wear-leveling and latency tests), DFTL/CAST with a small cache (185 s; their
#   eviction test stays) and the Python tools' tests. Since 2026-11-29 also the per-FTL power-cut
#   sweeps that the seeded cut test covers under the sanitizers (every FTL, 4 cuts each there:
#   SSD_POWER_CUTS_PER_FTL in the preset, 20 in the default pass): the dump for every FTL at 3
#   cuts and word-line safety for every FTL. Since 2026-12-07 two counts the rest checks for their
#   code: TRIM's steady-state deallocation count per FTL family (67 s; trims stay under the oracle
#   for every FTL) and the latency breakdown's sum on every FTL (79 s; its other test stays).
#   Measured again on 2026-12-07 (2,316 s of tests, 1,162 s wall at 2 jobs; CI then took 3,707 s in
#   all), and left out, each beside the tests that keep its code under the sanitizers (s of tests):
#   MLC word-line safety against torn pages for every FTL (115; the torn-page and superblock
#   word-line tests stay), MNK under several parameters (100; MNK runs in every per-FTL test),
#   page mapping across geometries (54; the randomized geometries stay), the waveform's die origins
#   (44; the other waveform tests stay), the direct fill's layout (36; every fill runs it), the
#   firmware on 1, 2 and 4 cores (50; the core dispatch model tests stay), the ISS image's bad
#   blocks (91; the ISS image's read errors and waveform stay), page mapping's cuts under GC,
#   flushes and FUA (60; the seeded cuts of every FTL stay), flushes and FUA mixed with reads (47;
#   the power-cut tests flush), the wear spread's narrowing (32; leveling's integrity test stays)
#   and the report schema (41; a format check). 59 of the suite's 511 entries are left out now.
# The default pass (tools/test.sh) runs them all. Arguments go to ctest, e.g.
# tools/test-sanitize.sh -L fuzz (only the fuzz smoke runs); SANITIZE_EXCLUDE= runs everything.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
options=()
command -v ccache >/dev/null && options=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# In CI the default build (tools/test.sh, run first) has just cross-built the firmware image from
# these sources: the sanitizer build takes it instead of building it a third time.
image=build/firmware-r5/fw/ssd_firmware.elf
[ -n "${CI:-}" ] && [ -f "$image" ] && options+=("-DSSD_PREBUILT_FIRMWARE_IMAGE=$PWD/$image")
cmake --preset sanitize "${options[@]}" >/dev/null
cmake --build --preset sanitize
default_exclude='as a firmware image on the ISS core|iss agreement|observers do not perturb|erase_after_copies no FTL|paper reproductions run|'
default_exclude+='paced GC keeps|^tools: |every kind of merge|hybrid log-block FTLs with merges|hybrid defaults: block-associative|'
default_exclude+='small mapping cache under GC|under reserve pressure|more dies never lose|one channel, |'
default_exclude+='capacitors dump the buffer for every FTL|on MLC with word-line safety no FTL loses|every FTL recovers through them|'
default_exclude+='deallocates what the steady state|the stages add up to the mean latency on every FTL|'
default_exclude+='where a torn upper page would take it|under several M, N, K|across geometries and over-provisioning|'
default_exclude+="each die's origin tells|lays it out as written|Firmware on 1, 2 and 4 cores|retires bad blocks as the host-compiled|"
default_exclude+='cuts at 20 points under GC, flushes and FUA|FUA writes mixed with reads|dynamic narrows the spread|'
default_exclude+='follow docs/report.schema.json'
exclude=${SANITIZE_EXCLUDE-$default_exclude}
ctest --preset sanitize ${exclude:+-E "$exclude"} "$@"
