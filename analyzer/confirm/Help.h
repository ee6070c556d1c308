// The --help texts of torchtidy run and torchtidy confirm.
#pragma once

namespace torchtidy::confirm {

extern const char RunHelp[];
extern const char ConfirmHelp[];

} // namespace torchtidy::confirm
