#include "fw/precondition/precondition_spec.h"

#include <stdexcept>

namespace ssd::fw {

PreconditionSpec PreconditionSpec::parse(const std::string& given) {
  PreconditionSpec spec;
  // A trailing +no-flush keeps the state the writes leave (dirty cached mappings included).
  const std::string no_flush = "+no-flush";
  std::string text = given;
  if (text.size() > no_flush.size() && text.compare(text.size() - no_flush.size(), no_flush.size(), no_flush) == 0) {
    text.resize(text.size() - no_flush.size());
    spec.flush = false;
    if (text == "none") throw std::invalid_argument("+no-flush needs a preconditioning that writes, got '" + given + "'");
  }
  if (text == "none") return spec;
  spec.fill = true;
  if (text == "fill") return spec;
  if (text == "fill+steady") {
    spec.steady = Steady::Direct;
    return spec;
  }
  if (text == "fill+steady:fill") {
    spec.steady = Steady::Fill;
    return spec;
  }
  if (text == "fill+steady:run") {
    spec.steady = Steady::Run;
    return spec;
  }
  const std::string random = "fill+random:";
  if (text.rfind(random, 0) == 0) {
    std::size_t used = 0;
    try {
      spec.random_capacities = std::stod(text.substr(random.size()), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size() - random.size() || !(spec.random_capacities > 0))
      throw std::invalid_argument("fill+random:X needs a positive number X, got '" + given + "'");
    return spec;
  }
  throw std::invalid_argument("expected none, fill, fill+random:X, fill+steady, fill+steady:fill or fill+steady:run (each optionally followed by +no-flush), got '" + given + "'");
}

}  // namespace ssd::fw
