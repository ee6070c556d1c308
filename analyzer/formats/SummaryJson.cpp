#include "formats/SummaryJson.h"

#include <nlohmann/json.hpp>

namespace torchtidy {
namespace {

nlohmann::json toJson(const FilePos &P) { return {P.File, P.Line, P.Column}; }

FilePos posFrom(const nlohmann::json &J) {
  return {J.at(0).get<std::string>(), J.at(1).get<unsigned>(), J.at(2).get<unsigned>()};
}

nlohmann::json toJson(const ReachedEffect &E) {
  nlohmann::json Chain = nlohmann::json::array();
  for (const ChainLink &L : E.Chain)
    Chain.push_back({toJson(L.Elsewhere), L.Callee, L.Virtual, L.Overriders, L.Handed});
  return {static_cast<int>(E.Op.Kind), E.Op.What, E.Op.Detail, toJson(E.Op.Elsewhere), E.InLoop,
          Chain, E.WhenParam, static_cast<int>(E.When), E.Callback};
}

ReachedEffect effectFrom(const nlohmann::json &J) {
  ReachedEffect E;
  int Kind = J.at(0).get<int>();
  if (Kind < 0 || Kind > static_cast<int>(EffectKind::TensorWork))
    throw std::runtime_error("unknown effect kind");
  E.Op.Kind = static_cast<EffectKind>(Kind);
  E.Op.What = J.at(1).get<std::string>();
  E.Op.Detail = J.at(2).get<std::string>();
  E.Op.Elsewhere = posFrom(J.at(3));
  E.InLoop = J.at(4).get<bool>();
  for (const nlohmann::json &L : J.at(5)) {
    ChainLink Link;
    Link.Elsewhere = posFrom(L.at(0));
    Link.Callee = L.at(1).get<std::string>();
    Link.Virtual = L.at(2).get<bool>();
    Link.Overriders = L.at(3).get<bool>();
    Link.Handed = L.at(4).get<bool>();
    E.Chain.push_back(std::move(Link));
  }
  E.WhenParam = J.at(6).get<int>();
  int When = J.at(7).get<int>();
  if (When < 0 || When > static_cast<int>(ParamCondition::NotOnHost))
    throw std::runtime_error("unknown parameter condition");
  E.When = static_cast<ParamCondition>(When);
  E.Callback = J.at(8).get<int>();
  return E;
}

} // namespace

nlohmann::json summaryToJson(const TUSummary &S) {
  nlohmann::json Functions = nlohmann::json::object();
  for (const auto &[Usr, Effects] : S.Functions) {
    nlohmann::json List = nlohmann::json::array();
    for (const ReachedEffect &E : Effects)
      List.push_back(toJson(E));
    Functions[Usr] = std::move(List);
  }
  return {{"cuda", S.MayUseCuda}, {"takes_device", S.TakesDevice}, {"main", S.DefinesMain},
          {"functions", Functions}, {"asked", S.Asked}, {"seen", S.Seen}};
}

TUSummary summaryFrom(const nlohmann::json &J) {
  TUSummary S;
  S.MayUseCuda = J.at("cuda").get<bool>();
  S.TakesDevice = J.at("takes_device").get<bool>();
  S.DefinesMain = J.at("main").get<bool>();
  for (const auto &[Usr, List] : J.at("functions").items())
    for (const nlohmann::json &E : List)
      S.Functions[Usr].push_back(effectFrom(E));
  S.Asked = J.at("asked").get<std::set<std::string>>();
  S.Seen = J.at("seen").get<std::string>();
  return S;
}

} // namespace torchtidy
