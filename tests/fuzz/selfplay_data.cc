// Fuzz target: self-play data files (tools/train_data/training_data.h) as
// wallgo-net features, verify and a resumed generate read them. The input
// is a file. Reading the header and the records, each record's position
// (checked by Position::FromParts) and moves, the training example made
// from it, the examples file, and reopening the file to resume (which
// drops a cut-short game) either work or give an error, never crash.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_check.h"
#include "tools/train_data/examples.h"
#include "tools/train_data/training_data.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wallgo;
  using namespace wallgo::train_data;
  if (size > 65536) return 0;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const fuzz::TempFile file("selfplay.dat", bytes);
  const std::string& path = file.path();
  DataHeader header;
  absl::StatusOr<std::vector<DataRecord>> records = ReadDataFile(path, &header);
  if (!records.ok()) {
    FUZZ_CHECK(!records.status().message().empty(), path);
    return 0;
  }
  for (size_t i = 0; i < records->size(); ++i) {
    const DataRecord& r = (*records)[i];
    absl::StatusOr<Position> pos = RecordPosition(r);
    for (int m = 0; m < std::min<int>(r.num_moves, kMaxRecordMoves); ++m) {
      (void)UnpackMove(r.moves[m]);
    }
    absl::StatusOr<Example> example = MakeExample(r, static_cast<uint32_t>(i));
    if (example.ok()) {
      FUZZ_CHECK(pos.ok(), "an example from a record with no position");
      FUZZ_CHECK(example->num_moves <= kMaxRecordMoves, path);
      FUZZ_CHECK(example->num_features <= search::net::kMaxActive, path);
    }
  }
  const fuzz::TempFile examples("examples.dat", "");
  (void)WriteExamplesFile(path, examples.path());
  // Resume: keeps whole games only, and the file still reads.
  absl::StatusOr<DataWriter> writer = DataWriter::Open(path, header);
  if (writer.ok()) {
    absl::StatusOr<std::vector<DataRecord>> kept = ReadDataFile(path);
    FUZZ_CHECK(kept.ok(), std::string(kept.status().message()));
    FUZZ_CHECK(static_cast<int64_t>(kept->size()) == writer->records(), path);
  }
  return 0;
}
