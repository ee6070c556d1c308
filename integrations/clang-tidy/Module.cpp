// The clang-tidy module: one check per entry of the rule registry, under
// the rule's own id. Loaded with clang-tidy-19 --load=<this library>.
#include "RuleCheck.h"

#include "ClangTidyModule.h"
#include "ClangTidyModuleRegistry.h"

namespace torchtidy {
namespace {

class TorchTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    for (const CheckFactory &F : allChecks())
      Factories.registerCheckFactory(
          F.Info->Id, [&F](llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx) {
            return std::make_unique<RuleCheck>(F, Name, Ctx);
          });
  }
};

clang::tidy::ClangTidyModuleRegistry::Add<TorchTidyModule>
    Registration("torchtidy-module", "LibTorch checks of torchtidy");

} // namespace
} // namespace torchtidy
