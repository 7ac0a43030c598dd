#include "frontend/project/Inputs.h"

#include "frontend/project/CommandLine.h"

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace warplint {

namespace {
std::mutex Lock;
// Entries are never removed: pointers to them stay valid.
std::map<std::string, InputText> &texts() {
  static std::map<std::string, InputText> t;
  return t;
}

/// Reads `fd` to its end or to maxBytes + 1 bytes, whichever comes first.
InputText readBounded(int fd, uint64_t maxBytes) {
  InputText in;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      in.error = std::string("cannot read file: ") + std::strerror(errno);
      in.text.clear();
      return in;
    }
    if (n == 0)
      return in;
    in.text.append(buf, size_t(n));
    if (in.text.size() > maxBytes) {
      in.error = "file is too large to analyze (more than " +
                 std::to_string(maxBytes >> 20) +
                 " MiB read, and it goes on; the limit is " +
                 std::to_string(maxBytes >> 20) +
                 " MiB, see --max-file-size)";
      in.text.clear();
      in.text.shrink_to_fit();
      return in;
    }
  }
}
} // namespace

std::string readSpecialInputs(std::vector<std::string> &files,
                              const std::string &stdinName,
                              uint64_t maxBytes) {
  size_t dashes = 0;
  for (const std::string &f : files)
    dashes += f == "-";
  if (dashes > 1)
    return "'-' (stdin) can be given once";
  if (!dashes && !stdinName.empty())
    return "--stdin-filename needs '-' among the input files (the source "
           "on stdin)";
  for (std::string &f : files) {
    InputText in;
    if (f == "-") {
      f = stdinName.empty() ? StdinName : stdinName;
      in = readBounded(STDIN_FILENO, maxBytes);
    } else {
      struct stat st;
      if (::stat(f.c_str(), &st) != 0 || S_ISREG(st.st_mode) ||
          S_ISDIR(st.st_mode))
        continue; // read (or refused) as usual
      int fd;
      do
        fd = ::open(f.c_str(), O_RDONLY | O_CLOEXEC);
      while (fd < 0 && errno == EINTR);
      if (fd < 0) {
        in.error = std::string("cannot open file: ") + std::strerror(errno);
      } else {
        in = readBounded(fd, maxBytes);
        ::close(fd);
      }
    }
    std::lock_guard<std::mutex> hold(Lock);
    texts()[absolutePath(f)] = std::move(in);
  }
  return "";
}

const InputText *inputText(const std::string &abs) {
  std::lock_guard<std::mutex> hold(Lock);
  auto it = texts().find(abs);
  return it == texts().end() ? nullptr : &it->second;
}

std::vector<std::pair<std::string, const std::string *>> inputTexts() {
  std::lock_guard<std::mutex> hold(Lock);
  std::vector<std::pair<std::string, const std::string *>> out;
  for (const auto &[path, in] : texts())
    if (in.error.empty())
      out.emplace_back(path, &in.text);
  return out;
}

} // namespace warplint
