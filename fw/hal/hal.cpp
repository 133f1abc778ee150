#include "fw/hal/hal.h"

namespace ssd::fw {

const char* to_string(OpKind k) {
  switch (k) {
    case OpKind::Read: return "read";
    case OpKind::Program: return "program";
    case OpKind::Erase: return "erase";
    case OpKind::HostDmaIn: return "host-dma-in";
    case OpKind::HostDmaOut: return "host-dma-out";
    case OpKind::Join: return "join";
    case OpKind::ReadOob: return "read-oob";
    case OpKind::Timer: return "timer";
  }
  return "?";
}

}  // namespace ssd::fw
