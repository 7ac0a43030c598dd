// The wmma lane map warplint encodes (analyzer/model/FragmentTable.inc)
// against the GPU's own answer, recorded by frag_cases.cu --layouts: for
// every fragment, lane and element, loaded and stored, the stored line and
// element the table's formula gives must be the one the GPU moved.
#include "model/Fragments.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace warplint;

namespace {

/// "matrix_a m16n16k16 __half wmma::row_major", "accumulator m16n16k16
/// float voidmem_col_major": the table's key.
struct Key {
  std::string use, elem, layout;
  int m = 0, n = 0, k = 0;
};

Key parse(const std::string &name) {
  Key key;
  size_t a = name.find(' '), b = name.find(' ', a + 1);
  key.use = name.substr(0, a);
  sscanf(name.substr(a + 1, b - a - 1).c_str(), "m%dn%dk%d", &key.m, &key.n,
         &key.k);
  std::string rest = name.substr(b + 1);
  // Operands end in " wmma::row_major"; accumulators, whose layout
  // argument is void, in " void" and then the memory layout.
  for (auto [suffix, layout] :
       {std::pair<std::string, std::string>{" wmma::row_major", "row_major"},
        {" wmma::col_major", "col_major"},
        {" voidmem_row_major", "mem_row_major"},
        {" voidmem_col_major", "mem_col_major"}})
    if (rest.size() > suffix.size() &&
        rest.compare(rest.size() - suffix.size(), suffix.size(), suffix) == 0) {
      key.layout = layout;
      key.elem = rest.substr(0, rest.size() - suffix.size());
    }
  if (key.elem == "wmma::precision::tf32")
    key.elem = "tf32";
  return key;
}

TEST(FragmentTable, EveryRecordedLaneAndElement) {
  std::string path = std::string(WARPLINT_SOURCE_DIR) +
                     "/bench-kernels/results/h100/tensor-core/layouts.json";
  auto buf = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(buf)) << path;
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse((*buf)->getBuffer());
  ASSERT_TRUE(bool(doc)) << llvm::toString(doc.takeError());
  const llvm::json::Array *all = doc->getAsArray();
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), fragmentLayouts().size());
  size_t checked = 0;
  for (const llvm::json::Value &v : *all) {
    const llvm::json::Object *c = v.getAsObject();
    ASSERT_TRUE(c);
    std::string name = c->getString("fragment")->str();
    Key key = parse(name);
    const FragmentLayout *f =
        findFragmentLayout(key.use, key.m, key.n, key.k, key.elem, key.layout);
    ASSERT_TRUE(f) << name << " -> " << key.use << " " << key.elem << " "
                   << key.layout;
    EXPECT_EQ(f->elements, *c->getInteger("elements")) << name;
    for (const char *way : {"load", "store"}) {
      const llvm::json::Array *lanes = c->getArray(way);
      if (!lanes)
        continue;
      ASSERT_EQ(lanes->size(), 32u) << name;
      for (int l = 0; l < 32; ++l) {
        const llvm::json::Array *elems = (*lanes)[l].getAsArray();
        ASSERT_EQ(int(elems->size()), f->elements) << name;
        int g = l / 4, t = l % 4;
        for (int e = 0; e < f->elements; ++e) {
          const llvm::json::Array *at = (*elems)[e].getAsArray();
          auto o = f->offsets[e % f->offsets.size()];
          EXPECT_EQ(*(*at)[0].getAsInteger(), f->lineG * g + f->lineT * t + o.first)
              << name << " " << way << " lane " << l << " element " << e;
          EXPECT_EQ(*(*at)[1].getAsInteger(), f->elemG * g + f->elemT * t + o.second)
              << name << " " << way << " lane " << l << " element " << e;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 20000u);
}

} // namespace
