// --shard I/N, one parser for every program that splits its work: the
// referee (match, annotate), `wallgo analysis` and `wallgo-net generate`.
#pragma once

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace wallgo::batch {

// The part of a run that one task does: items with item % count == index.
struct Shard {
  int index = 0;  // 0-based here; the command line counts from 1
  int count = 1;
  bool Has(int64_t item) const { return item % count == index; }
};

// "I/N" with 1 <= I <= N. The error names `flag` ("--shard").
absl::StatusOr<Shard> ParseShard(std::string_view text,
                                 std::string_view flag = "--shard");

}  // namespace wallgo::batch
