#include <algorithm>
#include <cstdint>
#include <ostream>

#include <fmt/format.h>

#include "apps/regression/DiffFormats.h"
#include "apps/regression/DiffText.h"

namespace npusim {

namespace {

// The length of the UTF-8 character at text[i] when it is one XML 1.0 may carry (tab, line
// feed, carriage return, U+0020..U+D7FF, U+E000..U+FFFD, U+10000..U+10FFFF), else 0.
std::size_t xml_char_length(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
  const unsigned lead = byte(i);
  if (lead < 0x80) return lead >= 0x20 || lead == '\t' || lead == '\n' || lead == '\r' ? 1 : 0;
  const std::size_t n = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
  if (n == 0 || lead > 0xF4) return 0;
  std::uint32_t code = lead & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  const std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  const bool ok = code >= least[n] && code <= 0x10FFFF && !(code >= 0xD800 && code <= 0xDFFF) && code != 0xFFFE &&
                  code != 0xFFFF;
  return ok ? n : 0;
}

// Text for an XML attribute or element. Characters XML 1.0 cannot carry at all (control
// characters, U+FFFE and U+FFFF, bytes that are no UTF-8: a layer name from an ONNX file may
// hold any) become '?', so the file always parses.
std::string xml(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = xml_char_length(text, i);
    const char c = text[i];
    if (n == 0) out += '?';
    else if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else if (c == '\'') out += "&apos;";
    else out.append(text, i, n);
    i += std::max<std::size_t>(n, 1);
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
