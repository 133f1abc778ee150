@ Thumb IT blocks for the ISS core's test (tests/model/test_iss_core.cpp). N times: count the
@ iteration in r4; on odd ones add r3 << 3 to r2 with a 32-bit conditional add that straddles the
@ 1 KiB page at 0x400 (Unicorn 2.0.1's pages on the Cortex-R5); then an if-then-else block counts
@ even iterations in r6 and odd ones in r7. The results go to SRAM, then BKPT halts the core.
@ Expected: r2 = 8 (N / 2), r6 = r7 = N / 2, and 5 + 9 N + 5 instructions executed.
  .syntax unified
  .thumb
  .equ N, 200
  .equ SRAM, 0x20000000
  .global _start
  .type _start, %function
_start:
  movs r0, #N
  movs r2, #0
  movs r3, #1
  movs r4, #0
  b loop
  .org 0x3f8
loop:
  adds r4, r4, #1
  lsls r5, r4, #31             @ Z clear on odd iterations
  it ne                        @ at 0x3fc
  addne.w r2, r2, r3, lsl #3   @ at 0x3fe: across the page boundary at 0x400
  ite eq
  addeq r6, r6, #1
  addne r7, r7, #1
  subs r0, r0, #1
  bne loop
  ldr r1, =SRAM
  str r2, [r1]
  str r6, [r1, #4]
  str r7, [r1, #8]
  bkpt #0
  .ltorg
