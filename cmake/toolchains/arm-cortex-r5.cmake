# Cross build of the firmware (fw/ with the common/ headers it uses) for an ARM Cortex-R5F, the
# kind of core real SSD controllers run their FTL on: ARMv7-R, Thumb-2, VFPv3-D16 with the
# hard-float ABI. Debian's gcc-arm-none-eabi with picolibc and its libstdc++
# (picolibc-arm-none-eabi, libstdc++-arm-none-eabi-picolibc; tools/install-deps.sh installs them).
# Used by the "firmware-r5" preset; only the firmware is built then (no SystemC, no host tools).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
# A bare-metal toolchain links no executable without start-up code: test compilers as libraries.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# picolibc's release build: its ARMv7 assembly memcpy/memset move words, where the default
# (size-optimised) build moves bytes: four times the instructions for every copy the firmware makes.
set(SSD_TARGET_FLAGS "-mcpu=cortex-r5 -mthumb -mfpu=vfpv3-d16 -mfloat-abi=hard --specs=picolibcpp.specs --picolibc-buildtype=release")
# -Wno-psabi: GCC notes that std::map's iterator passing changed in GCC 7.1 (ABI of pre-7 code,
# none here).
set(CMAKE_CXX_FLAGS_INIT "${SSD_TARGET_FLAGS} -ffunction-sections -fdata-sections -Wno-psabi")
set(CMAKE_C_FLAGS_INIT "${SSD_TARGET_FLAGS} -ffunction-sections -fdata-sections")
# (The compile flags reach the link line too: the specs must not be given twice.)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--gc-sections")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
