#include <algorithm>
#include <cstdint>
#include <ostream>

#include <fmt/format.h>

#include "apps/regression/DiffFormats.h"
#include "apps/regression/DiffText.h"

namespace npusim {

namespace {

// The UTF-8 character at text[i]: its length (0: the byte starts no well-formed character)
// and whether XML 1.0 may carry it (tab, line feed, carriage return, U+0020..U+D7FF,
// U+E000..U+FFFD, U+10000..U+10FFFF).
struct XmlChar {
  std::size_t length = 0;
  bool allowed = false;
};

XmlChar xml_char(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
  const unsigned lead = byte(i);
  if (lead < 0x80) return {1, lead >= 0x20 || lead == '\t' || lead == '\n' || lead == '\r'};
  const std::size_t n = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
  if (n == 0 || lead > 0xF4) return {};
  std::uint32_t code = lead & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return {};
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  const std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  // Overlong forms and encoded surrogates are no UTF-8 at all: byte by byte.
  if (code < least[n] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return {};
  return {n, code != 0xFFFE && code != 0xFFFF};
}

// Text for an XML attribute or element. What XML 1.0 cannot carry at all becomes '?', so the
// file always parses (a layer name from an ONNX file may hold anything): one per character
// for control characters, U+FFFE and U+FFFF, one per byte for bytes that are no UTF-8.
std::string xml(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const XmlChar x = xml_char(text, i);
    const char c = text[i];
    if (!x.allowed) out += '?';
    else if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else if (c == '\'') out += "&apos;";
    else out.append(text, i, x.length);
    i += std::max<std::size_t>(x.length, 1);
  }
  return out;
}

std::size_t failing_groups(const DiffResult& result, std::size_t from, std::size_t to) {
  std::size_t n = 0;
  for (std::size_t g = from; g < to; ++g) n += result.groups[g].differences > 0;
  return n;
}

// One <failure> per moved figure: the message names the figure and its move, the body
// says where it comes from, for a CI page that shows only one of them.
void print_failure(std::ostream& out, const Difference& d, const DiffShown& shown) {
  out << fmt::format("      <failure type=\"moved\" message=\"{}: {} -> {} ({})\">", xml(d.metric), xml(d.a), xml(d.b),
                     xml(change_text(d)));
  const std::string place = d.item.empty() ? d.section : d.section + " " + d.item;
  out << xml(fmt::format("{} {}: A ({}) {}, B ({}) {}, {} ({})", place, d.metric, shown.run_a, d.a, shown.run_b, d.b,
                         change_text(d), tolerance_text(shown.tolerance_pct)));
  out << "</failure>\n";
}

void print_testcase(std::ostream& out, const DiffResult& result, const ComparedGroup& g, const DiffShown& shown) {
  const std::string name = g.item.empty() ? g.section : g.item;
  out << fmt::format("    <testcase classname=\"{}\" name=\"{}\"", xml(g.section), xml(name));
  if (g.differences == 0) {
    out << "/>\n";
    return;
  }
  out << ">\n";
  for (std::size_t i = g.first_difference; i < g.first_difference + g.differences; ++i)
    print_failure(out, result.differences[i], shown);
  out << "    </testcase>\n";
}

// Groups [from, to) of one section.
void print_testsuite(std::ostream& out, const DiffResult& result, std::size_t from, std::size_t to,
                     const DiffShown& shown) {
  out << fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">\n",
                     xml(result.groups[from].section), to - from, failing_groups(result, from, to));
  for (std::size_t g = from; g < to; ++g) print_testcase(out, result, result.groups[g], shown);
  out << "  </testsuite>\n";
}

}  // namespace

void print_diff_junit(std::ostream& out, const DiffResult& result, const DiffShown& shown) {
  const auto& groups = result.groups;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << fmt::format("<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n",
                     xml(fmt::format("npusim diff {} {} ({})", shown.run_a, shown.run_b,
                                     tolerance_text(shown.tolerance_pct))),
                     groups.size(), failing_groups(result, 0, groups.size()));
  // A section's groups are consecutive: compare_sections compares one section at a time.
  for (std::size_t from = 0, to = 0; from < groups.size(); from = to) {
    while (to < groups.size() && groups[to].section == groups[from].section) ++to;
    print_testsuite(out, result, from, to, shown);
  }
  out << "</testsuites>\n";
}

}  // namespace npusim
