// What LibTorch declarations an expression or type refers to. Every answer
// comes from the declarations in the real headers, never from spelling, so
// aliases (torch::Tensor), auto, typedefs and template arguments all work.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchers.h"

namespace torchtidy {

// The record behind a type, looking through references, pointers to it is
// not done (a Tensor* is not a tensor), cv-qualifiers and sugar.
const clang::CXXRecordDecl *recordOf(clang::QualType T);

// True for the record itself or any class derived from it.
bool isOrDerivesFrom(const clang::CXXRecordDecl *RD, llvm::StringRef QualifiedName);

bool isTensorType(clang::QualType T);   // at::Tensor, at::TensorBase and subclasses
bool isDeviceType(clang::QualType T);   // c10::Device
bool isDeviceTypeEnum(clang::QualType T);  // c10::DeviceType (torch::kCUDA's type)
bool isTensorOptionsType(clang::QualType T);  // c10::TensorOptions
bool isModuleClass(const clang::CXXRecordDecl *RD);     // torch::nn::Module subclasses
bool isOptimizerClass(const clang::CXXRecordDecl *RD);  // torch::optim::Optimizer subclasses

// A module run on its inputs: m->forward(x) on a torch::nn::Module subclass
// or an AnyModule, m(x) through a ModuleHolder, a TorchScript module's
// forward (torch::jit::Module).
bool isModuleForwardCall(const clang::CallExpr &Call);

// The torch::nn::Module subclass a value of type T holds: the class itself,
// a pointer or std::shared_ptr to it, or a ModuleHolder of it (TORCH_MODULE);
// null otherwise.
const clang::CXXRecordDecl *heldModule(clang::QualType T);

// net(x) on a ModuleHolder<NetImpl>: NetImpl's forward taking as many
// arguments (else its first forward); null for other calls.
const clang::FunctionDecl *holderForward(const clang::CallExpr &Call);

// A method of at::Tensor (or at::TensorBase) with this name.
bool isTensorMethod(const clang::FunctionDecl *FD, llvm::StringRef Name);

// Declared in at::, torch:: or c10:: (at any depth) by LibTorch, not by a
// project that uses those namespaces too.
bool isTorchDecl(const clang::Decl *D);

// The expression without parentheses, implicit casts, temporaries and
// copies of a tensor into a tensor (Tensor(const Tensor&), TensorBase ->
// Tensor), which say nothing about where the data is.
const clang::Expr *ignoreTensorWrappers(const clang::Expr *E);

// E (after ignoreTensorWrappers) as a call of the named at::Tensor method.
const clang::CXXMemberCallExpr *asTensorMethodCall(const clang::Expr *E, llvm::StringRef Name);

// The operand a LibTorch op returns, whose device its result has whatever
// the other operands' are: the object of an in-place op (x.copy_(y)) or of
// x.expand_as(y) and the like (not x.type_as(y), which moves x), the
// first argument of an assignment (x += y) or of an out= op (add_out(out,
// a, b)); null for other calls.
const clang::Expr *returnedOperand(const clang::CallExpr &Call);

// The function (or lambda call operator) whose body holds the node.
const clang::FunctionDecl *enclosingFunction(const clang::Stmt &S, clang::ASTContext &Ctx);

// The torch::nn::Module subclass whose member function (or a lambda inside
// one) contains the statement; null when there is none.
const clang::CXXRecordDecl *enclosingModuleClass(const clang::Stmt &S, clang::ASTContext &Ctx);

// Matchers over the same facts, for registerMatchers.
namespace matchers {
AST_MATCHER(clang::CXXRecordDecl, isTorchModule) { return isModuleClass(&Node); }
AST_MATCHER(clang::Expr, hasTensorType) { return isTensorType(Node.getType()); }
// A method of at::Tensor named one of the given names.
inline clang::ast_matchers::internal::Matcher<clang::Decl>
tensorMethod(std::vector<std::string> Names) {
  using namespace clang::ast_matchers;
  return cxxMethodDecl(hasAnyName(std::vector<llvm::StringRef>(Names.begin(), Names.end())),
                       ofClass(cxxRecordDecl(anyOf(hasName("::at::Tensor"),
                                                   hasName("::at::TensorBase")))));
}
// A call of such a method.
inline clang::ast_matchers::internal::Matcher<clang::CXXMemberCallExpr>
callsTensorMethod(std::vector<std::string> Names) {
  return clang::ast_matchers::callee(tensorMethod(std::move(Names)));
}
} // namespace matchers

} // namespace torchtidy
