#include "common/batch/shard.h"

#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace wallgo::batch {

absl::StatusOr<Shard> ParseShard(std::string_view text, std::string_view flag) {
  const std::vector<std::string> parts =
      absl::StrSplit(absl::string_view(text.data(), text.size()), '/');
  int index = 0, count = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &index) ||
      !absl::SimpleAtoi(parts[1], &count) || count < 1 || index < 1 ||
      index > count) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad ", absl::string_view(flag.data(), flag.size()), " '",
                     absl::string_view(text.data(), text.size()),
                     "': I/N with 1 <= I <= N"));
  }
  return Shard{index - 1, count};
}

}  // namespace wallgo::batch
