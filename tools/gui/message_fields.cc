#include "tools/gui/message_fields.h"

#include "absl/strings/str_cat.h"
#include "common/json_text.h"

namespace wallgo::gui {

using nlohmann::json;

absl::Status Bad(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

std::string PageError(absl::string_view type, absl::string_view message) {
  return common::JsonText(
      json{{"type", std::string(type)}, {"message", std::string(message)}});
}

absl::StatusOr<std::string> StringField(const json& message,
                                        const std::string& key) {
  auto it = message.find(key);
  if (it == message.end() || !it->is_string()) {
    return Bad(absl::StrCat("'", key, "' must be a string"));
  }
  return it->get<std::string>();
}

absl::StatusOr<int64_t> IntField(const json& message, const std::string& key,
                                 int64_t min, int64_t max) {
  auto it = message.find(key);
  if (it == message.end() || !it->is_number_integer()) {
    return Bad(absl::StrCat("'", key, "' must be an integer"));
  }
  const int64_t value = it->get<int64_t>();
  if (value < min || value > max) {
    return Bad(absl::StrCat("'", key, "' must be in ", min, "..", max));
  }
  return value;
}

absl::StatusOr<double> NumberField(const json& message, const std::string& key,
                                   double min, double max) {
  auto it = message.find(key);
  if (it == message.end() || !it->is_number()) {
    return Bad(absl::StrCat("'", key, "' must be a number"));
  }
  const double value = it->get<double>();
  if (!(value >= min && value <= max)) {
    return Bad(absl::StrCat("'", key, "' must be in ", min, "..", max));
  }
  return value;
}

}  // namespace wallgo::gui
