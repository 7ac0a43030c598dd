#include "report/Drawing.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

namespace warplint {

static std::string lanesText(const std::vector<int> &lanes) {
  std::string s;
  for (size_t i = 0; i < lanes.size(); ++i) {
    size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1)
      ++j;
    if (!s.empty())
      s += ",";
    s += std::to_string(lanes[i]);
    if (j > i)
      s += (j == i + 1 ? "," : "-") + std::to_string(lanes[j]);
    i = j;
  }
  return s;
}

std::string drawSharedRequest(const Lanes &addr, LaneMask active, int bytes) {
  int per = bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8;
  std::string out;
  char buf[64];
  for (int p = 0; p < WarpSize / per; ++p) {
    // Per bank: distinct words in order of first use, with the lanes on each.
    std::vector<std::vector<std::pair<int64_t, std::vector<int>>>> banks(
        WarpSize);
    bool any = false;
    for (int l = p * per; l < (p + 1) * per; ++l) {
      if (!((active >> l) & 1))
        continue;
      any = true;
      for (int64_t w = addr[l] >> 2; w <= (addr[l] + bytes - 1) >> 2; ++w) {
        auto &b = banks[((w % WarpSize) + WarpSize) % WarpSize];
        auto it = std::find_if(b.begin(), b.end(),
                               [&](const auto &x) { return x.first == w; });
        if (it == b.end())
          b.push_back({w, {l}});
        else if (it->second.back() != l)
          it->second.push_back(l);
      }
    }
    if (!any)
      continue;
    size_t rows = 1;
    for (const auto &b : banks)
      rows = std::max(rows, b.size());
    if (per < 32) {
      std::snprintf(buf, sizeof buf, "  phase %d (lanes %d..%d)\n", p + 1,
                    p * per, (p + 1) * per - 1);
      out += buf;
    }
    out += "          bank";
    for (int b = 0; b < WarpSize; ++b) {
      std::snprintf(buf, sizeof buf, "%3d", b);
      out += buf;
    }
    out += "\n";
    for (size_t r = 0; r < rows; ++r) {
      std::snprintf(buf, sizeof buf, "  wavefront %2zu", r + 1);
      out += buf;
      for (int b = 0; b < WarpSize; ++b) {
        if (r < banks[b].size()) {
          const auto &lanes = banks[b][r].second;
          // The first lane served, '+' when others share the word (broadcast).
          std::snprintf(buf, sizeof buf, lanes.size() > 1 ? "%2d+" : "%3d",
                        lanes[0]);
          out += buf;
        } else {
          out += "  .";
        }
      }
      out += "\n";
    }
  }
  out += "  (a cell: the lane served from that bank in that wavefront; '+' "
         "other lanes read the same word)\n";
  return out;
}

std::string drawGlobalRequest(const Lanes &addr, LaneMask active, int bytes) {
  std::map<int64_t, std::pair<std::vector<int>, std::string>> sectors;
  for (int l = 0; l < WarpSize; ++l) {
    if (!((active >> l) & 1))
      continue;
    for (int64_t b = addr[l]; b < addr[l] + bytes; ++b) {
      auto &s = sectors[b >> 5];
      if (s.second.empty())
        s.second.assign(32, '.');
      s.second[size_t(b & 31)] = '#';
      if (s.first.empty() || s.first.back() != l)
        s.first.push_back(l);
    }
  }
  std::string out;
  char buf[160];
  if (sectors.empty())
    return "  (no active lane)\n";
  int64_t base = sectors.begin()->first;
  int shown = 0;
  for (const auto &[sec, info] : sectors) {
    if (++shown > 40) {
      std::snprintf(buf, sizeof buf, "  ... %zu sectors in all\n",
                    sectors.size());
      out += buf;
      break;
    }
    std::snprintf(buf, sizeof buf, "  sector +%-7lld [%s] lanes %s\n",
                  (long long)((sec - base) * 32), info.second.c_str(),
                  lanesText(info.first).c_str());
    out += buf;
  }
  out += "  (one row per 32-byte sector, offsets from the first; '#' a byte a "
         "lane uses, '.' fetched for nothing)\n";
  return out;
}

std::string drawConstantRequest(const Lanes &addr, LaneMask active) {
  std::map<int64_t, std::vector<int>> seen;
  for (int l = 0; l < WarpSize; ++l)
    if ((active >> l) & 1)
      seen[addr[l]].push_back(l);
  std::string out;
  char buf[160];
  int pass = 0;
  int64_t base = seen.empty() ? 0 : seen.begin()->first;
  for (const auto &[a, lanes] : seen) {
    std::snprintf(buf, sizeof buf, "  pass %2d: byte +%-6lld lanes %s\n",
                  ++pass, (long long)(a - base), lanesText(lanes).c_str());
    out += buf;
  }
  return out;
}

} // namespace warplint
