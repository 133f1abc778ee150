#include "fw/precondition/precondition_spec.h"

#include <algorithm>
#include <stdexcept>

namespace ssd::fw {

namespace {
// The age parts (+pe:N, +pe_spread:S, +days:D) taken out of `text`, wherever they stand.
void take_age(std::string& text, const std::string& given, PreconditionSpec& spec) {
  const struct {
    const char* key;
    double PreconditionSpec::*field;
    double most;
  } parts[] = {{"+pe:", &PreconditionSpec::pe_cycles, 1e7},
               {"+pe_spread:", &PreconditionSpec::pe_spread, 10},
               {"+days:", &PreconditionSpec::data_age_days, 36500}};
  for (const auto& part : parts) {
    const std::size_t at = text.find(part.key);
    if (at == std::string::npos) continue;
    const std::size_t from = at + std::string(part.key).size(), end = std::min(text.find('+', from), text.size());
    std::size_t used = 0;
    double v = -1;
    try {
      v = std::stod(text.substr(from, end - from), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != end - from || !(v >= 0) || v > part.most)
      throw std::invalid_argument(std::string(part.key + 1) + "X needs a number X from 0 to " + std::to_string(int(part.most)) +
                                  ", got '" + given + "'");
    spec.*part.field = v;
    text.erase(at, end - at);
  }
}
}  // namespace

PreconditionSpec PreconditionSpec::parse(const std::string& given) {
  PreconditionSpec spec;
  std::string text = given;
  take_age(text, given, spec);
  if (spec.pe_spread > 0 && spec.pe_cycles <= 0)
    throw std::invalid_argument("+pe_spread:S spreads the P/E cycles +pe:N gives, got '" + given + "' without +pe:N");
  // A trailing +no-flush keeps the state the writes leave (dirty cached mappings included).
  const std::string no_flush = "+no-flush";
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
  throw std::invalid_argument("expected none, fill, fill+random:X, fill+steady, fill+steady:fill or fill+steady:run (each "
                              "but none optionally followed by +no-flush, and any by +pe:N, +pe_spread:S, +days:D), got '" +
                              given + "'");
}

}  // namespace ssd::fw
