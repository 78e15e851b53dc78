// The engine's input in the WebAssembly build: lines handed over by the
// JavaScript side (wallgo_input), read by the protocol session as a stream.
// A browser has no stdin for the engine to read, and in Node reading fd 0
// from a thread would hold the JavaScript thread that prints the answers.
#pragma once

#include <condition_variable>
#include <mutex>
#include <streambuf>
#include <string>
#include <string_view>

namespace wallgo::web {

class LineChannel : public std::streambuf {
 public:
  // Appends `text` (any bytes; lines end with '\n') for the reader.
  void Push(std::string_view text);
  // The end of input: the reader sees end-of-file once the rest is read.
  void Close();

 protected:
  // Waits until there are bytes to read or the input is closed.
  int_type underflow() override;

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::string pending_;  // pushed, not yet taken by the reader
  bool closed_ = false;  // the rest guarded by mutex_
  std::string reading_;  // the reader's buffer (the get area)
};

}  // namespace wallgo::web
