// NOLINTEND(torch-copy-in-loop)
int x; // NOLINTNEXTLINE(torch-copy-in-loop
// NOLINTBEGIN(-torch-*,torch-host-sync-in-loop)
R"(NOLINT)"
