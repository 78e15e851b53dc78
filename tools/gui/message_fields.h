// The fields of a page's JSON message, each checked for its JSON type and
// range: a bad one is an InvalidArgument error that names the field, so the
// bridge can check a whole message before it changes anything.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace wallgo::gui {

// An InvalidArgument error: the page sent something it may not.
absl::Status Bad(absl::string_view message);

// The message a page gets for a refused one: {"type": type, "message": ...}.
std::string PageError(absl::string_view type, absl::string_view message);

absl::StatusOr<std::string> StringField(const nlohmann::json& message,
                                        const std::string& key);
// An integer in min..max.
absl::StatusOr<int64_t> IntField(const nlohmann::json& message,
                                 const std::string& key, int64_t min,
                                 int64_t max);
// A number (integer or not) in min..max.
absl::StatusOr<double> NumberField(const nlohmann::json& message,
                                   const std::string& key, double min,
                                   double max);
// A boolean; false when the message has no such field.
absl::StatusOr<bool> OptionalBoolField(const nlohmann::json& message,
                                       const std::string& key);

}  // namespace wallgo::gui
