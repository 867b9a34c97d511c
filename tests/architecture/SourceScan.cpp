#include "architecture/SourceScan.h"
#include "TestPaths.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>

namespace npusim::test {

namespace fs = std::filesystem;

std::vector<std::string> source_files(const std::string& folder) {
  std::vector<std::string> files;
  const fs::path root(NPUSIM_SOURCE_DIR);
  if (!fs::is_directory(root / folder)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".h" || ext == ".cpp"))
      files.push_back(fs::relative(entry.path(), root).generic_string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> source_lines(const std::string& file) {
  std::ifstream in(fs::path(NPUSIM_SOURCE_DIR) / file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

namespace {

// The literal opened by `quote` at `i`, up to its closing quote; `i` ends past it.
std::string read_literal(const std::string& line, std::size_t& i) {
  const char quote = line[i++];
  std::string text;
  while (i < line.size() && line[i] != quote) {
    if (line[i] == '\\' && i + 1 < line.size()) text += line[i++];
    text += line[i++];
  }
  ++i;
  return text;
}

}  // namespace

LexedLine lex_line(const std::string& line, bool& in_comment) {
  LexedLine out;
  for (std::size_t i = 0; i < line.size();) {
    if (in_comment) {
      const std::size_t end = line.find("*/", i);
      in_comment = end == std::string::npos;
      i = in_comment ? line.size() : end + 2;
    } else if (line.compare(i, 2, "//") == 0) {
      break;
    } else if (line.compare(i, 2, "/*") == 0) {
      in_comment = true;
      i += 2;
    } else if (line[i] == '"' || line[i] == '\'') {
      const char quote = line[i];
      std::string text = read_literal(line, i);
      out.code += std::string(2, quote);
      if (quote == '"') out.strings.push_back(std::move(text));
    } else {
      out.code += line[i++];
    }
  }
  return out;
}

namespace {

std::size_t indentation(const std::string& code) {
  const std::size_t first = code.find_first_not_of(' ');
  return first == std::string::npos ? std::string::npos : first;
}

std::string trimmed_right(const std::string& code) {
  const std::size_t last = code.find_last_not_of(" \t");
  return last == std::string::npos ? "" : code.substr(0, last + 1);
}

// Lines that cannot open a definition: preprocessor, closing braces, namespaces and aliases.
bool may_open_definition(const std::string& code, std::size_t at) {
  static const std::regex kNot(R"(^(#|\}|namespace\b|using\b|typedef\b|friend\b|public:|private:|protected:))");
  return !std::regex_search(code.substr(at), kNot);
}

// How a definition's head (the code up to its first "{" or ";" outside parentheses) reads.
enum class Head { Declaration, Function, Class, Other, Unfinished };

struct HeadScan {
  Head head = Head::Unfinished;
  std::string text;  // the head's code, lines joined
  int braces = 0;    // "{" minus "}" over the lines read
};

void scan_head_line(const std::string& code, HeadScan& scan, int& parens) {
  for (char c : code) {
    if (scan.head == Head::Unfinished) {
      if (c == '(') ++parens;
      if (c == ')') --parens;
      if (parens == 0 && c == ';') scan.head = Head::Declaration;
      if (parens == 0 && c == '{') {
        static const std::regex kClass(R"(^\s*(template\s*<[^>]*>\s*)?(class|struct|union)\b)");
        scan.head = scan.text.find('(') != std::string::npos ? Head::Function
                    : std::regex_search(scan.text, kClass)   ? Head::Class
                                                             : Head::Other;
      }
      if (scan.head == Head::Unfinished) scan.text += c;
    }
    if (c == '{') ++scan.braces;
    if (c == '}') --scan.braces;
  }
  scan.text += ' ';
}

// The name before the parameter list: the identifier (with its qualifiers) before the first
// "(" outside template brackets.
std::string function_name(const std::string& head) {
  int angles = 0;
  for (std::size_t i = 0; i < head.size(); ++i) {
    if (head[i] == '<') ++angles;
    if (head[i] == '>') --angles;
    if (head[i] != '(' || angles > 0) continue;
    std::size_t begin = i;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(head[begin - 1])) || head[begin - 1] == '_' ||
                         head[begin - 1] == ':' || head[begin - 1] == '~'))
      --begin;
    return begin == i ? "(lambda)" : head.substr(begin, i - begin);
  }
  return "";
}

std::string class_name(const std::string& head) {
  static const std::regex kName(R"(\b(class|struct|union)\s+(\w+))");
  std::smatch m;
  return std::regex_search(head, m, kName) ? m[2].str() : "";
}

struct Scope {
  std::size_t indent;
  std::string prefix;  // "Class::" inside a class body
};

class FunctionScanner {
 public:
  explicit FunctionScanner(const std::vector<std::string>& lines) {
    bool in_comment = false;
    for (const auto& line : lines) code_.push_back(lex_line(line, in_comment).code);
  }

  std::vector<FunctionSpan> scan() {
    std::vector<Scope> scopes = {{0, ""}};
    for (std::size_t i = 0; i < code_.size(); ++i) {
      const std::size_t at = indentation(code_[i]);
      if (at == std::string::npos) continue;
      if (scopes.size() > 1 && at + 2 == scopes.back().indent && code_[i][at] == '}') {
        scopes.pop_back();
        continue;
      }
      if (at == scopes.back().indent && may_open_definition(code_[i], at)) i = definition(i, scopes);
    }
    return spans_;
  }

 private:
  // Reads the definition opening at line `i`; returns the last line it takes.
  std::size_t definition(std::size_t i, std::vector<Scope>& scopes) {
    const std::size_t indent = scopes.back().indent;
    HeadScan head;
    int parens = 0;
    std::size_t j = i;
    for (;; ++j) {
      if (j > i && (j >= code_.size() || indentation(code_[j]) == std::string::npos ||
                    indentation(code_[j]) <= indent))
        return i;  // no head: a macro call or a statement left open
      scan_head_line(code_[j], head, parens);
      if (head.head != Head::Unfinished) break;
    }
    if (head.head == Head::Class && head.braces > 0)
      scopes.push_back({indent + 2, scopes.back().prefix + class_name(head.text) + "::"});
    if (head.head != Head::Function) return j;
    const std::size_t last = head.braces == 0 ? j : closing_line(j + 1, indent);
    spans_.push_back({scopes.back().prefix + function_name(head.text), i + 1, last + 1});
    return last;
  }

  // The first line from `from` that is only "}" (or "};", a lambda's) at the scope's indentation.
  std::size_t closing_line(std::size_t from, std::size_t indent) const {
    const std::string close = std::string(indent, ' ') + "}";
    for (std::size_t k = from; k < code_.size(); ++k) {
      const std::string line = trimmed_right(code_[k]);
      if (line == close || line == close + ";") return k;
    }
    return code_.size() - 1;
  }

  std::vector<std::string> code_;
  std::vector<FunctionSpan> spans_;
};

}  // namespace

std::vector<FunctionSpan> function_spans(const std::vector<std::string>& lines) {
  return FunctionScanner(lines).scan();
}

}  // namespace npusim::test
