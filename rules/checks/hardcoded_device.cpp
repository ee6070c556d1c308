#include "checks/hardcoded_device.h"

#include "analyses/CudaText.h"
#include "analyses/CudaUse.h"
#include "analyses/DeviceExpr.h"
#include "analyses/TorchTypes.h"
#include "analyses/UnresolvedCall.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo HardcodedDeviceCheck::Info = {
    "torch-hardcoded-device",
    "CUDA device fixed in code (.cuda(), kCUDA, Device(\"cuda:1\")) where it should follow one device variable",
    Level::Warning,
    Precision::High,
    {"portability", "correctness"},
    {{"ModulesOnly", "false",
      "flag only .cuda() and device literals inside torch::nn::Module subclasses and registered "
      "parameters, and unguarded CUDA device variables; not program code"}}};

static const internal::VariadicDynCastAllOfMatcher<Stmt, RecoveryExpr> recoveryExpr;

void HardcodedDeviceCheck::registerMatchers(MatchFinder *Finder) {
  auto User = unless(isExpansionInSystemHeader());
  Finder->addMatcher(
      cxxMemberCallExpr(User, matchers::callsTensorMethod({"cuda"})).bind("cuda"), this);
  // Calls Clang could not build: .cuda(0) (C++'s takes no device), or
  // .cuda() of an object whose type a missing header declares.
  Finder->addMatcher(memberExpr(User, member(matchers::tensorMethod({"cuda"})),
                                hasParent(recoveryExpr()))
                         .bind("unbuilt"),
                     this);
  Finder->addMatcher(cxxDependentScopeMemberExpr(User, hasMemberName("cuda")).bind("unbuilt"), this);
  Finder->addMatcher(
      declRefExpr(User, to(valueDecl(anyOf(varDecl(hasName("::c10::kCUDA")),
                                           enumConstantDecl(hasName("::c10::DeviceType::CUDA"))))))
          .bind("leaf"),
      this);
  Finder->addMatcher(cxxConstructExpr(User, hasType(cxxRecordDecl(hasName("::c10::Device"))),
                                      argumentCountIs(1))
                         .bind("leaf"),
                     this);
}

void HardcodedDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("cuda"))
    checkCudaCall(*Call, *Result.Context);
  else if (const auto *Member = Result.Nodes.getNodeAs<Expr>("unbuilt"))
    checkUnbuiltCudaCall(*Member, *Result.Context);
  else if (const auto *Leaf = Result.Nodes.getNodeAs<Expr>("leaf"))
    checkLiteral(*Leaf, *Result.Context);
}

// The call of Module::register_parameter / register_buffer whose argument
// holds the statement, if any.
static bool isInRegisterCall(const Stmt &S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *Call = P.get<CXXMemberCallExpr>()) {
      const CXXMethodDecl *MD = Call->getMethodDecl();
      if (MD && (MD->getName() == "register_parameter" || MD->getName() == "register_buffer") &&
          isModuleClass(MD->getParent()))
        return true;
    }
    if (P.get<Decl>())
      return false;
    Parents = Ctx.getParents(P);
  }
  return false;
}

// Program code (outside modules) is checked unless ModulesOnly is set; code
// that runs only when CUDA is there is a device-selection site.
bool HardcodedDeviceCheck::skipsProgramCode(const Stmt &S, ASTContext &Ctx) const {
  return Options.getBool("ModulesOnly") || isGuardedByCudaTest(S, Ctx);
}

// What a .cuda() in Module, in a registered parameter or else in program
// code does.
static std::string cudaCallMessage(const CXXRecordDecl *Module, bool Registered) {
  if (!Module && !Registered)
    return "'.cuda()' puts the tensor on the current CUDA device (cuda:0) whatever device the "
           "program selected, and fails on a machine without a GPU; use '.to(<device>)' with the "
           "program's device variable";
  return "'.cuda()' in " +
         (Module ? "module '" + Module->getNameAsString() + "'" : "a registered parameter") +
         " puts the tensor on the current CUDA device (cuda:0) and it stays there when the "
         "module is moved with 'to(device)'; use '.to(<device>)' with the module's device";
}

static const std::string Selection = "torch::cuda::is_available() ? torch::kCUDA : torch::kCPU";

// What a CUDA device written as Spelling does in Module, or else in
// program code.
static std::string literalMessage(const CXXRecordDecl *Module, llvm::StringRef Spelling) {
  if (Module)
    return "device '" + Spelling.str() + "' is hard-coded in module '" + Module->getNameAsString() +
           "'; tensors made here ignore 'module->to(device)'; take the device from an input "
           "('x.device()') or a parameter";
  return "device '" + Spelling.str() + "' is hard-coded; the program fails on a machine without a "
         "GPU and ignores its device variable; select the device once ('" + Selection +
         "') and pass it";
}

void HardcodedDeviceCheck::checkCudaCall(const CXXMemberCallExpr &Call, ASTContext &Ctx) {
  const CXXRecordDecl *Module = enclosingModuleClass(Call, Ctx);
  bool Registered = !Module && isInRegisterCall(Call, Ctx);
  if (!Module && !Registered && skipsProgramCode(Call, Ctx))
    return;
  const auto *Member = llvm::dyn_cast<MemberExpr>(Call.getCallee()->IgnoreParens());
  if (!Member)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = Member->getMemberLoc();
  auto D = diag(SM, Loc, cudaCallMessage(Module, Registered));
  std::vector<std::string> Devices = visibleDeviceVariables(Call, Ctx);
  if (Devices.size() == 1 && !Loc.isMacroID() && !Call.getRParenLoc().isMacroID())
    D.fix(CharSourceRange::getTokenRange(Loc, Call.getRParenLoc()), "to(" + Devices[0] + ")");
}

// Reported as a dropped one would be (below): a dependent member outside
// templates is one whose object's type Clang lost to an error.
void HardcodedDeviceCheck::checkUnbuiltCudaCall(const Expr &Member, ASTContext &Ctx) {
  const auto *Dependent = llvm::dyn_cast<CXXDependentScopeMemberExpr>(&Member);
  const FunctionDecl *FD = enclosingFunction(Member, Ctx);
  if (Dependent && (!FD || FD->isDependentContext()))
    return;
  const CXXRecordDecl *Module = enclosingModuleClass(Member, Ctx);
  if (!Module && skipsProgramCode(Member, Ctx))
    return;
  SourceLocation Loc = Dependent ? Dependent->getMemberLoc()
                                 : llvm::cast<MemberExpr>(Member).getMemberLoc();
  diag(Ctx.getSourceManager(), Loc, cudaCallMessage(Module, false))
      .note(Loc, "read from code that did not compile, a call Clang could not build");
}

// A .cuda() in code Clang dropped around an error is not in the AST: it is
// read from the tokens, where the kept statement around them would have
// it checked (in a module, or in program code outside a CUDA test), unless
// the AST has that call.
void HardcodedDeviceCheck::onEndOfTranslationUnit(ASTContext &Ctx,
                                                  llvm::ArrayRef<SourceLocation> Errors) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseSet<SourceLocation> Reported; // errors in the same dropped code
  std::vector<std::optional<DroppedCode>> All = droppedCode(Ctx, Errors);
  for (LostLocal &L : lostLocals(Ctx))
    All.push_back(std::move(L.Code));
  for (const std::optional<DroppedCode> &D : All) {
    if (!D)
      continue;
    const CXXRecordDecl *Module = D->Around ? enclosingModuleClass(*D->Around, Ctx) : nullptr;
    bool Skipped = D->Around ? skipsProgramCode(*D->Around, Ctx) : Options.getBool("ModulesOnly");
    if (!Module && Skipped)
      continue;
    llvm::DenseSet<SourceLocation> InAst = D->Kept ? memberNamesIn(*D->Kept, SM)
                                                   : llvm::DenseSet<SourceLocation>();
    const char *Dropped = "read from code that did not compile, which Clang left out";
    CudaInText Cuda = cudaInText(SM, Ctx.getLangOpts(), D->Text);
    for (const CudaInText::Call &C : Cuda.CudaCalls)
      if (!InAst.contains(C.Name) && Reported.insert(C.Name).second)
        diag(SM, C.Name, cudaCallMessage(Module, false)).note(C.Name, Dropped);
    for (const CudaInText::Call &M : Cuda.Moves) {
      SourceLocation Loc = M.Device.getBegin();
      if (!InAst.contains(M.Name) && Reported.insert(Loc).second)
        diag(SM, Loc, literalMessage(Module, Lexer::getSourceText(M.Device, SM, Ctx.getLangOpts())))
            .note(Loc, Dropped);
    }
  }
}

// Wrappers that pass a device value on unchanged.
static bool isDeviceWrapper(const DynTypedNode &N) {
  if (N.get<ImplicitCastExpr>() || N.get<MaterializeTemporaryExpr>() ||
      N.get<CXXBindTemporaryExpr>() || N.get<CXXFunctionalCastExpr>() || N.get<ParenExpr>() ||
      N.get<ExprWithCleanups>())
    return true;
  if (const auto *C = N.get<CXXConstructExpr>())
    return isDeviceType(C->getType()) || isTensorOptionsType(C->getType());
  return false;
}

// The callee of a member call x.to(..) or x->to(..) that Clang did not
// resolve: in a template, on an object of dependent type, or because a
// header is missing (model->to(torch::kCUDA) on a module whose declaration
// uses an absent library's types). Clang keeps such a call as a
// RecoveryExpr holding the callee and the arguments, or as a call whose
// callee is a RecoveryExpr; the member's name is then read from the tokens.
static bool isUnresolvedTo(const Expr *Callee, ASTContext &Ctx) {
  Callee = Callee->IgnoreParens();
  if (const auto *DM = llvm::dyn_cast<CXXDependentScopeMemberExpr>(Callee))
    return DM->getMember().getAsString() == "to";
  if (const auto *UM = llvm::dyn_cast<UnresolvedMemberExpr>(Callee))
    return UM->getMemberName().getAsString() == "to";
  return recoveredMemberName(Callee, Ctx) == "to";
}

// A function of the code (a constructor too: Trainer(torch::kCUDA, ...))
// given the device Arg as its Device or DeviceType parameter.
static bool passedAsDevice(const FunctionDecl &FD, llvm::ArrayRef<const Expr *> Args,
                           const Expr *Arg) {
  for (unsigned I = 0; I < Args.size() && I < FD.getNumParams(); ++I)
    if (Args[I] == Arg) {
      QualType T = FD.getParamDecl(I)->getType().getNonReferenceType();
      return isDeviceType(T) || isDeviceTypeEnum(T);
    }
  return false;
}

// Calls that take a device to make or move tensors or modules: anything
// returning a tensor (factories, .to()), TensorOptions::device,
// torch::device(), a module's to() and the loads that map to a device; a
// function of the code given the device Arg as its Device or DeviceType
// parameter (model->toDevice(torch::kCUDA)); and a .to() left unresolved.
static bool consumesDevice(const CallExpr &Call, const Expr *Arg, ASTContext &Ctx) {
  if (isTensorType(Call.getType()) || isUnresolvedTo(Call.getCallee(), Ctx))
    return true;
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD)
    return false;
  if (!isTorchDecl(FD))
    return passedAsDevice(*FD, {Call.getArgs(), Call.getNumArgs()}, Arg);
  if (const auto *MD = llvm::dyn_cast<CXXMethodDecl>(FD);
      MD && MD->getIdentifier() && MD->getName() == "to" && isTorchDecl(MD))
    return true;
  std::string Name = FD->getQualifiedNameAsString();
  return Name == "c10::TensorOptions::device" || Name == "c10::device" || Name == "torch::load" ||
         Name == "torch::jit::load" || Name == "torch::serialize::InputArchive::load_from";
}

// S runs under an if or a switch of its function: an assignment there picks
// the device by a condition (a command-line flag), as a selection site does.
static bool isInBranch(const Stmt &S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (P.get<IfStmt>() || P.get<SwitchStmt>() || P.get<ConditionalOperator>())
      return true;
    if (P.get<Decl>())
      return false;
    Parents = Ctx.getParents(P);
  }
  return false;
}

// module->to(..), this->to(..): a module's own to().
static bool movesModule(const CallExpr &Call) {
  const auto *MC = llvm::dyn_cast<CXXMemberCallExpr>(&Call);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  return MD && MD->getIdentifier() && MD->getName() == "to" && isModuleClass(MD->getParent());
}

// Every use of V compares it (x.device().type() == cuda): a device type to
// test against, not a device to put tensors on.
static bool onlyCompared(const VarDecl &V, ASTContext &Ctx) {
  const auto *FD = llvm::dyn_cast_or_null<FunctionDecl>(V.getParentFunctionOrMethod());
  if (!FD || !FD->getBody())
    return false;
  auto Uses = match(findAll(declRefExpr(to(varDecl(equalsNode(&V)))).bind("use")), *FD->getBody(), Ctx);
  return !Uses.empty() && llvm::all_of(Uses, [&](const BoundNodes &N) {
    DynTypedNode E = DynTypedNode::create(*N.getNodeAs<Expr>("use"));
    for (;;) {
      DynTypedNodeList Ps = Ctx.getParents(E);
      if (Ps.size() != 1)
        return false;
      if (Ps[0].get<ImplicitCastExpr>() || Ps[0].get<ParenExpr>()) {
        E = Ps[0];
        continue;
      }
      if (const auto *B = Ps[0].get<BinaryOperator>())
        return B->isEqualityOp();
      const auto *Op = Ps[0].get<CXXOperatorCallExpr>();
      return Op && (Op->getOperator() == OO_EqualEqual || Op->getOperator() == OO_ExclaimEqual);
    }
  });
}

static std::string sourceText(const Expr *E, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  return Lexer::getSourceText(SM.getExpansionRange(E->getSourceRange()), SM, Ctx.getLangOpts()).str();
}

void HardcodedDeviceCheck::checkLiteral(const Expr &Leaf, ASTContext &Ctx) {
  if (literalDeviceKind(&Leaf) != DeviceKind::Cuda)
    return;
  // A Device built from kCUDA is reported through the kCUDA leaf.
  if (const auto *C = llvm::dyn_cast<CXXConstructExpr>(&Leaf); C && deviceLiteralSite(C) != C)
    return;
  // A literal in a template is one node shared by the pattern and its
  // instantiations: each parent leads to a different use.
  for (const DynTypedNode &P : Ctx.getParents(Leaf))
    checkUse(Leaf, P, Ctx);
}

void HardcodedDeviceCheck::checkUse(const Expr &Leaf, DynTypedNode Consumer, ASTContext &Ctx) {
  const Expr *Top = &Leaf;
  while (isDeviceWrapper(Consumer)) {
    // Reported at the device, not at the options made from it (whose range
    // may be a whole declaration: TensorOptions opts(torch::kCUDA)).
    if (!isTensorOptionsType(Consumer.get<Expr>()->getType()))
      Top = Consumer.get<Expr>();
    DynTypedNodeList Up = Ctx.getParents(Consumer);
    if (Up.empty())
      return;
    Consumer = Up[0];
  }
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = Top->getBeginLoc();
  SourceRange Written = Top->getSourceRange();
  if (Written.getBegin().isMacroID())  // spelled in a macro's body or argument
    Written = {SM.getSpellingLoc(Written.getBegin()), SM.getSpellingLoc(Written.getEnd())};
  std::string Spelling =
      Lexer::getSourceText(CharSourceRange::getTokenRange(Written), SM, Ctx.getLangOpts()).str();

  const auto *Var = Consumer.get<VarDecl>();
  if (Var && (isDeviceType(Var->getType()) || isDeviceTypeEnum(Var->getType()))) {
    if (!isGuardedByCudaTest(Leaf, Ctx) &&
        !(isDeviceTypeEnum(Var->getType()) && onlyCompared(*Var, Ctx)))
      reportFixed(Var->getLocation(), "device '" + Var->getNameAsString() + "' is fixed to",
                  "select it once: 'torch::Device " + Var->getNameAsString() + "(" + Selection + ")'",
                  SM);
    return;
  }
  if (const auto *Field = Consumer.get<FieldDecl>(); Field && isDeviceType(Field->getType())) {
    reportFixed(Field->getLocation(), "device member '" + Field->getNameAsString() + "' defaults to",
                "default it to '" + Selection + "'", SM);
    return;
  }
  if (const auto *Assign = Consumer.get<CXXOperatorCallExpr>();
      Assign && Assign->getOperator() == OO_Equal && isDeviceType(Assign->getArg(0)->getType())) {
    if (!isInBranch(*Assign, Ctx))
      reportFixed(Loc, "device '" + sourceText(Assign->getArg(0), Ctx) + "' is set to",
                  "set it to '" + Selection + "'", SM);
    return;
  }
  // Options stored in a variable carry the device to every tensor made with them.
  const auto *Call = Consumer.get<CallExpr>();
  const auto *Construct = Consumer.get<CXXConstructExpr>();
  const auto *Failed = Consumer.get<RecoveryExpr>(); // a call Clang could not build
  bool Consumed =
      Var ? isTensorOptionsType(Var->getType())
      : Call ? !llvm::isa<CXXOperatorCallExpr>(Call) && consumesDevice(*Call, Top, Ctx)
      : Construct ? !isTorchDecl(Construct->getConstructor()) &&
                        passedAsDevice(*Construct->getConstructor(),
                                       {Construct->getArgs(), Construct->getNumArgs()}, Top)
      : Failed && Failed->subExpressions().size() > 1 && Failed->subExpressions()[0] != Top &&
            isUnresolvedTo(Failed->subExpressions()[0], Ctx);
  if (!Consumed)
    return;
  // A module that moves itself to CUDA when CUDA is there selects its device.
  if (Call && movesModule(*Call) && isGuardedByCudaTest(Leaf, Ctx))
    return;
  const CXXRecordDecl *Module = enclosingModuleClass(Leaf, Ctx);
  if (Module || !skipsProgramCode(Leaf, Ctx))
    diag(SM, Loc, literalMessage(Module, Spelling));
}

void HardcodedDeviceCheck::reportFixed(SourceLocation Loc, const std::string &Subject,
                                       const std::string &Fix, const SourceManager &SM) {
  diag(SM, Loc, Subject + " CUDA with no CPU fallback; the program fails on a machine without a GPU")
      .note(Loc, Fix);
}

} // namespace torchtidy
