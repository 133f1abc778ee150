@ A closed-form loop for the ISS core's timing test (tests/model/test_iss_core.cpp): N times,
@ load a word from SRAM (over the system bus), add one, store it back. Thumb-2, Cortex-R5.
  .syntax unified
  .thumb
  .equ N, 100
  .equ SRAM, 0x20000000
  .global _start
  .type _start, %function
_start:
  ldr r1, =SRAM      @ the assembler makes it mov.w (0x20000000 is a Thumb-2 immediate)
  movs r0, #N
1:
  ldr r2, [r1]       @ load over the bus
  adds r2, r2, #1
  str r2, [r1]       @ store over the bus
  subs r0, r0, #1
  bne 1b
  bkpt #0            @ halts the core
  .ltorg
