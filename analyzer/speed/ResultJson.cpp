#include "speed/ResultJson.h"

#include "checks/Registry.h"

#include <nlohmann/json.hpp>

namespace torchtidy {
namespace {

nlohmann::json toJson(const Position &P) {
  return {P.File, P.Line, P.Column, P.LineText};
}

Position positionFrom(const nlohmann::json &J) {
  Position P;
  P.File = J.at(0).get<std::string>();
  P.Line = J.at(1).get<unsigned>();
  P.Column = J.at(2).get<unsigned>();
  P.LineText = J.at(3).get<std::string>();
  return P;
}

} // namespace

nlohmann::json findingsToJson(const std::vector<Finding> &Findings) {
  nlohmann::json Out = nlohmann::json::array();
  for (const Finding &F : Findings) {
    nlohmann::json Notes = nlohmann::json::array(), Fixes = nlohmann::json::array();
    for (const FindingNote &N : F.Notes)
      Notes.push_back({toJson(N.Pos), N.Message});
    for (const FindingFix &X : F.Fixes)
      Fixes.push_back({toJson(X.Pos), X.Offset, X.Length, X.Replacement});
    Out.push_back({{"rule", F.Rule->Id},
                   {"level", static_cast<int>(F.Severity)},
                   {"pos", toJson(F.Pos)},
                   {"end", F.EndColumn},
                   {"message", F.Message},
                   {"notes", Notes},
                   {"fixes", Fixes}});
  }
  return Out;
}

// Throws on any malformation (the entry is then corrupt).
std::vector<Finding> findingsFrom(const nlohmann::json &J) {
  std::vector<Finding> Out;
  for (const nlohmann::json &JF : J) {
    Finding F;
    const CheckFactory *C = findCheck(JF.at("rule").get<std::string>());
    if (!C)
      throw std::runtime_error("unknown check " + JF.at("rule").get<std::string>());
    F.Rule = C->Info;
    F.Severity = static_cast<Level>(JF.at("level").get<int>());
    F.Pos = positionFrom(JF.at("pos"));
    F.EndColumn = JF.at("end").get<unsigned>();
    F.Message = JF.at("message").get<std::string>();
    for (const nlohmann::json &N : JF.at("notes"))
      F.Notes.push_back({positionFrom(N.at(0)), N.at(1).get<std::string>()});
    for (const nlohmann::json &X : JF.at("fixes"))
      F.Fixes.push_back({positionFrom(X.at(0)), X.at(1).get<unsigned>(), X.at(2).get<unsigned>(),
                         X.at(3).get<std::string>()});
    Out.push_back(std::move(F));
  }
  return Out;
}

nlohmann::json missingToJson(llvm::ArrayRef<MissingHeader> Missing) {
  nlohmann::json Out = nlohmann::json::array();
  for (const MissingHeader &M : Missing)
    Out.push_back({M.Name, M.Dirs});
  return Out;
}

bool anyNowFound(const nlohmann::json &J) {
  for (const nlohmann::json &M : J)
    if (nowFound({M.at(0).get<std::string>(), M.at(1).get<std::vector<std::string>>()}))
      return true;
  return false;
}

} // namespace torchtidy
