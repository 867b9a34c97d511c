#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace npusim {

// A problem with something the user gave us (config, trace, workload, .npy).
// It names the file, the place inside it (JSON path, line, field) and the reason,
// and the CLI turns it into one message on stderr with exit status 2. Long places
// and reasons (they may echo a huge value) are shortened, keeping head and tail, and
// control characters in any part are escaped, so the message is always one line.
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::string location, std::string reason);

  const std::string& file() const { return file_; }
  const std::string& location() const { return location_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_;
  std::string location_;
  std::string reason_;
};

// `text` cut to about `limit` bytes for one line of a message: head and tail kept,
// the middle replaced by " [... N of M characters cut ...] ", never splitting a
// UTF-8 character. Every message that may echo what a user typed goes through it.
inline constexpr std::size_t kMaxEchoedText = 600;
std::string shortened_for_message(std::string text, std::size_t limit = kMaxEchoedText);

// `text` with every control character written as an escape: \n, \r, \t, \xHH for the
// other C0 codes and DEL, \u00HH for UTF-8-encoded C1 codes. An echoed value then keeps
// a message on one line and cannot move the cursor or recolour the user's terminal.
// Backslashes are left alone, so escaping a message twice changes nothing (places and
// reasons are re-wrapped by callers). InputError applies it to every part it is given.
std::string escaped_controls(const std::string& text);
// What a message says when it echoes `text`: shortened, then escaped (one line).
std::string echoed_for_message(std::string text, std::size_t limit = kMaxEchoedText);

// Text from a library (the ONNX checker, shape inference) that spans several lines,
// joined into one: each run of line breaks, with the blanks around it, becomes a space.
std::string joined_lines(const std::string& text);

// An output file that cannot be written (full disk, file size limit, read-only
// place): an InputError naming it, with the system's reason taken from errno.
[[noreturn]] void fail_writing(const std::string& path, const std::string& what = "cannot write the file");

// A valid but huge input that does not fit in memory (std::bad_alloc while taking
// `bytes` for it): an InputError saying how much was needed.
[[noreturn]] void fail_allocating(const std::string& file, const std::string& place, std::uint64_t bytes);

}  // namespace npusim
