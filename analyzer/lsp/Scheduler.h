// Runs analyses on one worker thread, one at a time: a document is queued at
// most once, at the time it is due (edits are debounced: each one moves its
// document's time on), so a burst of typing costs one analysis.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace torchtidy::lsp {

class Scheduler {
public:
  using Clock = std::chrono::steady_clock;
  explicit Scheduler(std::function<void(const std::string &Path)> Run);
  ~Scheduler();

  void schedule(const std::string &Path, std::chrono::milliseconds Delay);
  void cancel(const std::string &Path);
  // Waits for the analysis under way, if any; the queue is dropped.
  void stop();

private:
  void loop();
  std::function<void(const std::string &)> Run;
  std::mutex Lock;
  std::condition_variable Changed;
  std::map<std::string, Clock::time_point> Due;
  bool Stopping = false;
  std::thread Worker;
};

} // namespace torchtidy::lsp
