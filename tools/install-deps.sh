#!/usr/bin/env bash
# Installs the Debian packages the project needs (build, tests, benchmark and plot scripts, headless
# waveform rendering, the clang sanitizer and fuzz build, the ARM cross toolchain for the
# firmware's Cortex-R5F build, and Unicorn, Capstone and libelf for the ISS core), if missing. clang's runtimes
# (ASan, UBSan, libFuzzer) are in libclang-rt-dev, which clang only recommends.
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config libsystemc-dev catch2 libyaml-cpp-dev nlohmann-json3-dev
          libcli11-dev libfmt-dev zlib1g-dev libbz2-dev liblzma-dev libzstd-dev python3 python3-matplotlib python3-jsonschema python3-yaml python3-numpy python3-scipy python3-distributed python3-tqdm gtkwave xvfb xauth imagemagick
          clang libclang-rt-dev
          gcc-arm-none-eabi picolibc-arm-none-eabi libstdc++-arm-none-eabi-picolibc
          libunicorn-dev libcapstone-dev libelf-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "Installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
