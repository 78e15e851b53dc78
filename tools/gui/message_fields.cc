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

namespace {

// A `T` in min..max, where `is_kind` says whether the JSON value is one
// ("an integer", "a number": `kind`).
template <typename T>
absl::StatusOr<T> RangedField(const json& message, const std::string& key,
                              T min, T max, bool (json::*is_kind)() const,
                              absl::string_view kind) {
  auto it = message.find(key);
  if (it == message.end() || !((*it).*is_kind)()) {
    return Bad(absl::StrCat("'", key, "' must be ", kind));
  }
  const T value = it->get<T>();
  if (!(value >= min && value <= max)) {  // NaN is out of range too
    return Bad(absl::StrCat("'", key, "' must be in ", min, "..", max));
  }
  return value;
}

}  // namespace

absl::StatusOr<int64_t> IntField(const json& message, const std::string& key,
                                 int64_t min, int64_t max) {
  return RangedField(message, key, min, max, &json::is_number_integer,
                     "an integer");
}

absl::StatusOr<double> NumberField(const json& message, const std::string& key,
                                   double min, double max) {
  return RangedField(message, key, min, max, &json::is_number, "a number");
}

absl::StatusOr<bool> OptionalBoolField(const json& message,
                                       const std::string& key) {
  auto it = message.find(key);
  if (it == message.end()) return false;
  if (!it->is_boolean()) {
    return Bad(absl::StrCat("'", key, "' must be true or false"));
  }
  return it->get<bool>();
}

}  // namespace wallgo::gui
