#include "lsp/Scheduler.h"

namespace torchtidy::lsp {

Scheduler::Scheduler(std::function<void(const std::string &)> Run)
    : Run(std::move(Run)), Worker([this] { loop(); }) {}

Scheduler::~Scheduler() { stop(); }

void Scheduler::schedule(const std::string &Path, std::chrono::milliseconds Delay) {
  std::lock_guard<std::mutex> G(Lock);
  Due[Path] = Clock::now() + Delay;
  Changed.notify_all();
}

void Scheduler::cancel(const std::string &Path) {
  std::lock_guard<std::mutex> G(Lock);
  Due.erase(Path);
}

void Scheduler::stop() {
  {
    std::lock_guard<std::mutex> G(Lock);
    Stopping = true;
    Due.clear();
    Changed.notify_all();
  }
  if (Worker.joinable())
    Worker.join();
}

void Scheduler::loop() {
  std::unique_lock<std::mutex> L(Lock);
  while (!Stopping) {
    if (Due.empty()) {
      Changed.wait(L);
      continue;
    }
    auto Next = Due.begin();
    for (auto It = Due.begin(); It != Due.end(); ++It)
      if (It->second < Next->second)
        Next = It;
    if (Next->second > Clock::now()) {
      Changed.wait_until(L, Next->second);
      continue;
    }
    std::string Path = Next->first;
    Due.erase(Next);
    L.unlock();
    Run(Path);
    L.lock();
  }
}

} // namespace torchtidy::lsp
