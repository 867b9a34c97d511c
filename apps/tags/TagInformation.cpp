#include "apps/tags/TagInformation.h"

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/format.h>

#include "sim/common/InputError.h"

namespace npusim {

namespace {

struct CategoryCode {
  DataCategory category;
  const char* code;
};
constexpr std::array<CategoryCode, 9> kCategories = {{{DataCategory::Instruction, "ins"},
                                                      {DataCategory::InputNeuron, "in"},
                                                      {DataCategory::OutputNeuron, "on"},
                                                      {DataCategory::HiddenNeuron, "hn"},
                                                      {DataCategory::ConstantNeuron, "cn"},
                                                      {DataCategory::InputWeight, "iw"},
                                                      {DataCategory::OutputWeight, "ow"},
                                                      {DataCategory::ConstantWeight, "cw"},
                                                      {DataCategory::Auxiliary, "aux"}}};

constexpr std::array<std::pair<ExchangeLevel, const char*>, 5> kExchanges = {
    {{ExchangeLevel::None, "no"}, {ExchangeLevel::Core, "core"}, {ExchangeLevel::Cluster, "cluster"},
     {ExchangeLevel::Memory, "mem"}, {ExchangeLevel::CoreAndCluster, "core+cluster"}}};

[[noreturn]] void bad_tag_text(const std::string& text, const std::string& reason) {
  throw InputError("", "tag '" + text + "'", reason);
}

// Fields separated by commas outside brackets, parentheses and braces.
std::vector<std::string> fields_of(const std::string& s) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (char ch : s) {
    if (ch == '[' || ch == '(' || ch == '{') ++depth;
    if (ch == ']' || ch == ')' || ch == '}') --depth;
    if (ch == ',' && depth == 0)
      out.emplace_back();
    else
      out.back() += ch;
  }
  return out;
}

std::uint64_t number(const std::string& text, const std::string& s, const std::string& what) {
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    bad_tag_text(text, fmt::format("{}: '{}' is not a whole number", what, s));
  if (s.size() > 18) bad_tag_text(text, fmt::format("{}: '{}' is too large", what, s));
  return std::stoull(s);
}

DType dtype_of(const std::string& text, const std::string& s) {
  if (auto t = parse_dtype(s)) return *t;
  bad_tag_text(text, fmt::format("unknown data type '{}'; choose one of {}", s, dtype_choices()));
}

std::string order_of(const std::string& text, const std::string& s) {
  if (s.rfind("dim_", 0) != 0 || s.size() == 4) bad_tag_text(text, fmt::format("'{}' must be dim_ and dimension letters, e.g. dim_nc", s));
  return s.substr(4);
}

// "c=256" or "h=2;w=2".
std::vector<DimValue> dim_values(const std::string& text, const std::string& s, const std::string& what) {
  std::vector<DimValue> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t end = std::min(s.find(';', start), s.size());
    const std::string one = s.substr(start, end - start);
    if (one.size() < 3 || one[1] != '=' || !std::isalpha(static_cast<unsigned char>(one[0])))
      bad_tag_text(text, fmt::format("{} '{}' must look like c=256", what, one));
    out.push_back({one[0], number(text, one.substr(2), what)});
    start = end + 1;
  }
  return out;
}

std::string dim_values_text(const std::vector<DimValue>& v) {
  std::string s;
  for (const auto& d : v) s += fmt::format("{}{}={}", s.empty() ? "" : ";", d.dim, d.value);
  return s;
}

std::uint64_t size_of(const std::string& text, const std::string& s) {
  static const std::array<std::pair<const char*, std::uint64_t>, 5> units = {
      {{"字节", 1}, {"kb", 1024}, {"mb", 1024 * 1024}, {"b", 1}, {"", 1}}};
  std::string lower;
  for (char c : s) lower += char(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& [suffix, scale] : units) {
    const std::string suf = suffix;
    if (lower.size() > suf.size() && lower.compare(lower.size() - suf.size(), suf.size(), suf) == 0)
      return number(text, lower.substr(0, lower.size() - suf.size()), "size") * scale;
  }
  bad_tag_text(text, fmt::format("size '{}' must be a number of bytes such as 2kb, 8000b or 8000字节", s));
}

SplitIndex split_of(const std::string& text, const std::string& s) {
  SplitIndex split;
  if (s.size() < 4 || s[1] != '[' || s.back() != ']')
    bad_tag_text(text, fmt::format("split index '{}' must look like c[(0,255),(256,511)]", s));
  split.dim = s[0];
  for (const std::string& piece : fields_of(s.substr(2, s.size() - 3))) {
    const std::size_t comma = piece.find(',');
    if (piece.size() < 5 || piece.front() != '(' || piece.back() != ')' || comma == std::string::npos)
      bad_tag_text(text, fmt::format("split piece '{}' must be (start,end)", piece));
    const std::uint64_t a = number(text, piece.substr(1, comma - 1), "split start");
    const std::uint64_t b = number(text, piece.substr(comma + 1, piece.size() - comma - 2), "split end");
    if (b < a) bad_tag_text(text, fmt::format("split piece '{}' ends before it starts", piece));
    split.pieces.emplace_back(a, b);
  }
  return split;
}

std::optional<StorageId> storage_of(const std::string& s) {
  for (auto [prefix, level] : {std::pair{"mem", StorageId::Level::Memory}, {"cluster", StorageId::Level::ClusterCache}}) {
    const std::string p = prefix;
    if (s.rfind(p, 0) != 0) continue;
    const std::string rest = s.substr(p.size());
    if (rest.empty()) return StorageId{level, 0};
    if (rest.size() <= 4 && std::all_of(rest.begin(), rest.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
        rest != "0" && rest[0] != '0')
      return StorageId{level, std::uint32_t(std::stoul(rest))};
  }
  return std::nullopt;
}

ExchangeLevel exchange_of(const std::string& text, const std::string& s) {
  for (const auto& [level, code] : kExchanges)
    if (s == code) return level;
  bad_tag_text(text, fmt::format("exchange level '{}' must be one of no, core, cluster, mem, core+cluster", s));
}

StaticTag static_of(const std::string& text, const std::string& s) {
  const auto f = fields_of(s);
  if (f.size() != 4) bad_tag_text(text, "the static tag needs 4 fields: category, data type, dim_<order>, {values}");
  StaticTag t;
  auto category = parse_category(f[0]);
  if (!category) bad_tag_text(text, fmt::format("unknown data category '{}'", f[0]));
  t.category = *category;
  t.dtype = dtype_of(text, f[1]);
  t.order = order_of(text, f[2]);
  if (f[3].size() < 3 || f[3].front() != '{' || f[3].back() != '}') bad_tag_text(text, "dimension values must be {x1 x2 ...}");
  const std::string inner = f[3].substr(1, f[3].size() - 2);
  for (std::size_t at = 0; at < inner.size();) {
    const std::size_t end = std::min(inner.find(' ', at), inner.size());
    if (end > at) t.values.push_back(number(text, inner.substr(at, end - at), "dimension value"));
    at = end + 1;
  }
  if (t.values.size() != t.order.size())
    bad_tag_text(text, fmt::format("{} dimension letters but {} values", t.order.size(), t.values.size()));
  return t;
}

DynamicTag dynamic_of(const std::string& text, const std::string& s) {
  auto f = fields_of(s);
  if (f.size() < 5 || f.size() > 8)
    bad_tag_text(text, "the dynamic tag needs data type, dim_<order>, tiling, padding, size, then optionally split, store, swap");
  DynamicTag t;
  t.dtype = dtype_of(text, f[0]);
  t.order = order_of(text, f[1]);
  t.tiling = dim_values(text, f[2], "tiling");
  t.padding = dim_values(text, f[3], "padding");
  t.size_bytes = size_of(text, f[4]);
  std::size_t i = 5;
  if (i < f.size() && f[i].find('[') != std::string::npos) t.split = split_of(text, f[i++]);
  if (i < f.size()) {
    t.store = storage_of(f[i]);
    if (!t.store) bad_tag_text(text, fmt::format("storage '{}' must be mem, cluster, memK or clusterK", f[i]));
    ++i;
  }
  if (i < f.size()) t.swap = exchange_of(text, f[i++]);
  if (i != f.size()) bad_tag_text(text, fmt::format("unexpected field '{}'", f[i]));
  return t;
}

std::string values_text(const std::vector<std::uint64_t>& v) {
  std::string s;
  for (auto x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

}  // namespace

const char* category_code(DataCategory c) {
  for (const auto& e : kCategories)
    if (e.category == c) return e.code;
  return "?";
}

std::optional<DataCategory> parse_category(const std::string& code) {
  for (const auto& e : kCategories)
    if (code == e.code) return e.category;
  return std::nullopt;
}

const char* exchange_code(ExchangeLevel e) {
  for (const auto& [level, code] : kExchanges)
    if (level == e) return code;
  return "?";
}

DataCategory category_from_degree(std::uint32_t out_degree, std::uint32_t in_degree, DataRole role) {
  if (out_degree == 0 && in_degree == 0) return DataCategory::Instruction;
  if (in_degree == 0) {
    switch (role) {
      case DataRole::Neuron: return DataCategory::InputNeuron;
      case DataRole::Weight: return DataCategory::InputWeight;
      case DataRole::Constant: return DataCategory::ConstantNeuron;
      case DataRole::Auxiliary: return DataCategory::Auxiliary;
    }
  }
  if (out_degree == 0) return role == DataRole::Weight ? DataCategory::OutputWeight : DataCategory::OutputNeuron;
  return DataCategory::HiddenNeuron;
}

std::string size_text(std::uint64_t bytes) {
  return bytes >= 1024 && bytes % 1024 == 0 ? fmt::format("{}kb", bytes / 1024) : fmt::format("{}b", bytes);
}

std::string to_string(const SplitIndex& s) {
  std::string pieces;
  for (const auto& [a, b] : s.pieces) pieces += fmt::format("{}({},{})", pieces.empty() ? "" : ",", a, b);
  return fmt::format("{}[{}]", s.dim, pieces);
}

std::string to_string(const StorageId& s) {
  const char* level = s.level == StorageId::Level::Memory ? "mem" : "cluster";
  return s.instance ? fmt::format("{}{}", level, s.instance) : level;
}

std::string to_string(const StaticTag& t) {
  return fmt::format("static:{},{},dim_{},{{{}}}", category_code(t.category), dtype_name(t.dtype), t.order,
                     values_text(t.values));
}

std::string to_string(const DynamicTag& t) {
  std::string s = fmt::format("dynamic:{},dim_{},{},{},{}", dtype_name(t.dtype), t.order, dim_values_text(t.tiling),
                              dim_values_text(t.padding), size_text(t.size_bytes));
  if (t.split) s += "," + to_string(*t.split);
  if (t.store) s += "," + to_string(*t.store);
  if (t.swap) s += std::string(",") + exchange_code(*t.swap);
  return s;
}

std::string to_string(const TagInformation& t) { return to_string(t.fixed) + to_string(t.dynamic); }

TagInformation parse_tag_information(const std::string& text) {
  const std::size_t dyn = text.find("dynamic:");
  if (text.rfind("static:", 0) != 0 || dyn == std::string::npos)
    bad_tag_text(text, "must be static:<fields>dynamic:<fields>");
  TagInformation t;
  t.fixed = static_of(text, text.substr(7, dyn - 7));
  t.dynamic = dynamic_of(text, text.substr(dyn + 8));
  return t;
}

}  // namespace npusim
