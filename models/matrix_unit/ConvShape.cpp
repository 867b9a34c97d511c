#include "models/matrix_unit/ConvShape.h"

#include <cerrno>
#include <cstdlib>
#include <map>
#include <sstream>
#include <vector>

#include "sim/common/InputError.h"
#include "sim/tensor/DType.h"

namespace npusim {

namespace {

const char* const kSpecName = "layer spec";

[[noreturn]] void reject(const std::string& key, const std::string& reason) {
  throw InputError(kSpecName, key, reason);
}

std::uint32_t parse_count(const std::string& key, const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    reject(key, "expected a non-negative integer, got '" + text + "'");
  errno = 0;
  unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
  if (errno != 0 || value > 1000000000ull) reject(key, "value " + text + " is too large");
  return static_cast<std::uint32_t>(value);
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep)) parts.push_back(part);
  return parts;
}

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t");
  auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// Groups "pad=1,2,3,4" so that bare numbers after a key are extra values of that key.
std::vector<std::pair<std::string, std::vector<std::string>>> tokenize(const std::string& spec) {
  std::vector<std::pair<std::string, std::vector<std::string>>> items;
  for (const std::string& raw : split(spec, ',')) {
    std::string token = trim(raw);
    if (token.empty()) reject("", "empty item in '" + spec + "'");
    auto eq = token.find('=');
    if (eq == std::string::npos) {
      if (items.empty()) reject(token, "expected key=value");
      items.back().second.push_back(token);
      continue;
    }
    items.push_back({trim(token.substr(0, eq)), {trim(token.substr(eq + 1))}});
  }
  return items;
}

void apply_padding(ConvShape& s, const std::vector<std::string>& values) {
  if (values.size() == 1) {
    std::uint32_t p = parse_count("pad", values[0]);
    s.pad_top = s.pad_bottom = s.pad_left = s.pad_right = p;
  } else if (values.size() == 4) {
    s.pad_top = parse_count("pad", values[0]);
    s.pad_bottom = parse_count("pad", values[1]);
    s.pad_left = parse_count("pad", values[2]);
    s.pad_right = parse_count("pad", values[3]);
  } else {
    reject("pad", "expected one value or four (top,bottom,left,right), got " +
                      std::to_string(values.size()));
  }
}

}  // namespace

std::uint64_t ConvShape::useful_macs() const {
  return std::uint64_t(n) * ho() * wo() * co * kh * kw * ci;
}

std::string ConvShape::to_string() const {
  std::ostringstream o;
  o << "n=" << n << ",hi=" << hi << ",wi=" << wi << ",ci=" << ci << ",co=" << co
    << ",kh=" << kh << ",kw=" << kw << ",sh=" << sh << ",sw=" << sw << ",pad=" << pad_top
    << "," << pad_bottom << "," << pad_left << "," << pad_right
    << ",element_bytes=" << element_bytes;
  return o.str();
}

void validate_conv_shape(const ConvShape& s) {
  const std::pair<const char*, std::uint32_t> positive[] = {
      {"n", s.n}, {"hi", s.hi}, {"wi", s.wi}, {"ci", s.ci}, {"co", s.co},
      {"kh", s.kh}, {"kw", s.kw}, {"sh", s.sh}, {"sw", s.sw}};
  for (const auto& [key, value] : positive)
    if (value == 0) reject(key, "must be at least 1");
  if (s.element_bytes != 1 && s.element_bytes != 2 && s.element_bytes != 4)
    reject("element_bytes", "must be 1, 2 or 4, got " + std::to_string(s.element_bytes));
  if (s.kh > s.padded_hi())
    reject("kh", "kernel height " + std::to_string(s.kh) + " exceeds padded input height " +
                     std::to_string(s.padded_hi()));
  if (s.kw > s.padded_wi())
    reject("kw", "kernel width " + std::to_string(s.kw) + " exceeds padded input width " +
                     std::to_string(s.padded_wi()));
}

ConvShape parse_conv_spec(const std::string& spec) {
  ConvShape s;
  const std::map<std::string, std::uint32_t ConvShape::*> fields = {
      {"n", &ConvShape::n},   {"hi", &ConvShape::hi}, {"wi", &ConvShape::wi},
      {"ci", &ConvShape::ci}, {"co", &ConvShape::co}, {"kh", &ConvShape::kh},
      {"kw", &ConvShape::kw}, {"sh", &ConvShape::sh}, {"sw", &ConvShape::sw},
      {"pad_top", &ConvShape::pad_top}, {"pad_bottom", &ConvShape::pad_bottom},
      {"pad_left", &ConvShape::pad_left}, {"pad_right", &ConvShape::pad_right},
      {"element_bytes", &ConvShape::element_bytes}};
  std::map<std::string, bool> seen;
  for (const auto& [key, values] : tokenize(spec)) {
    if (seen[key]) reject(key, "given twice");
    seen[key] = true;
    if (key == "pad") {
      apply_padding(s, values);
      continue;
    }
    if (values.size() != 1) reject(key, "takes one value");
    if (key == "dtype") {
      auto t = parse_dtype(values[0]);
      if (!t) reject(key, "unknown dtype '" + values[0] + "' (choices: " + dtype_choices() + ")");
      s.element_bytes = static_cast<std::uint32_t>(dtype_size(*t));
    } else if (key == "k") {
      s.kh = s.kw = parse_count(key, values[0]);
    } else if (key == "stride") {
      s.sh = s.sw = parse_count(key, values[0]);
    } else if (auto f = fields.find(key); f != fields.end()) {
      s.*(f->second) = parse_count(key, values[0]);
    } else {
      reject(key, "unknown key (expected n, hi, wi, ci, co, kh, kw, k, sh, sw, stride, pad, "
                  "pad_top, pad_bottom, pad_left, pad_right, dtype, element_bytes)");
    }
  }
  for (const char* key : {"hi", "wi", "ci", "co"})
    if (!seen[key]) reject(key, "is required");
  if (!seen["k"] && (!seen["kh"] || !seen["kw"])) reject("kh", "kh and kw (or k) are required");
  validate_conv_shape(s);
  return s;
}

}  // namespace npusim
