#include "Report.h"

#include <algorithm>

namespace torchtidy::doctor {

const char *verdictName(Verdict V) {
  switch (V) {
  case Verdict::Ok: return "ok";
  case Verdict::Warning: return "warning";
  case Verdict::Failed: return "failed";
  }
  return "?";
}

void Layer::ok(std::string Name, std::string Fact) { Checks.push_back({std::move(Name), std::move(Fact)}); }

void Layer::warn(std::string Name, std::string Fact, std::string Cause, std::string Next) {
  Checks.push_back({std::move(Name), std::move(Fact), Verdict::Warning, std::move(Cause), std::move(Next)});
}

void Layer::fail(std::string Name, std::string Fact, std::string Cause, std::string Next) {
  Checks.push_back({std::move(Name), std::move(Fact), Verdict::Failed, std::move(Cause), std::move(Next)});
}

const Check *Layer::firstFailed() const {
  for (const Check &C : Checks)
    if (C.V == Verdict::Failed)
      return &C;
  return nullptr;
}

Verdict Layer::verdict() const {
  Verdict V = Verdict::Ok;
  for (const Check &C : Checks)
    V = std::max(V, C.V);
  return V;
}

int Report::failedLayer() const {
  for (const Layer &L : Layers)
    if (L.Ran && L.firstFailed())
      return L.Number;
  return 0;
}

} // namespace torchtidy::doctor
