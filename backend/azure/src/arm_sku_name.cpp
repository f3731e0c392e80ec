// A VM size spelled as the Retail Prices API spells it: its filters compare case-sensitively,
// and Batch reports a pool's vmSize in lower case.
#include <algorithm>
#include <cctype>
#include <vector>

#include "azure/prices.hpp"
#include "core/text.hpp"

namespace trainyard::azure {
namespace {

char upper(char c) {
  return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
}
bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

std::vector<std::string> parts_of(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t sep; (sep = s.find('_', start)) != std::string::npos; start = sep + 1)
    out.push_back(s.substr(start, sep - start));
  out.push_back(s.substr(start));
  return out;
}

// `nc4as` → `NC4as`: the family's letters, then its size and feature letters.
std::string family(std::string part) {
  auto digit = std::find_if(part.begin(), part.end(), is_digit);
  std::transform(part.begin(), digit, part.begin(), upper);
  return part;
}

// `v3` stays, `promo` → `Promo`, an accelerator (`a100`, `t4`) → upper case.
std::string suffix(std::string part) {
  bool version =
      part.size() > 1 && part[0] == 'v' && std::all_of(part.begin() + 1, part.end(), is_digit);
  if (version) return part;
  if (part == "promo") return "Promo";
  std::transform(part.begin(), part.end(), part.begin(), upper);
  return part;
}

}  // namespace

std::string arm_sku_name(std::string_view vm_size) {
  auto parts = parts_of(ascii_lowercase(vm_size));
  if (!parts[0].empty()) parts[0][0] = upper(parts[0][0]);
  std::string out = parts[0];
  for (size_t i = 1; i < parts.size(); ++i)
    out += "_" + (i == 1 ? family(parts[i]) : suffix(parts[i]));
  return out;
}

}  // namespace trainyard::azure
