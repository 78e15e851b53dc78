// Byte streams between threads in the WebAssembly builds. LineChannel is the
// engine's input: lines handed over by the JavaScript side (wallgo_input),
// or by the static site's bridge, read by the protocol session as a stream.
// A browser has no stdin for the engine to read, and in Node reading fd 0
// from a thread would hold the JavaScript thread that prints the answers.
// OutputChannel is the other way: an engine session in the static site
// writes its answers into it, and the bridge's client takes them out.
#pragma once

#include <chrono>
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

class OutputChannel : public std::streambuf {
 public:
  enum class Taken { kBytes, kTimeout, kClosed };
  // Moves what was written onto the end of `into`, waiting until there is
  // something, the channel is closed (and emptied), or the deadline.
  Taken Take(std::string& into, std::chrono::steady_clock::time_point deadline);
  // The writer is done: a reader sees kClosed once the rest is taken.
  void Close();

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::string written_;  // not yet taken
  bool closed_ = false;
};

}  // namespace wallgo::web
