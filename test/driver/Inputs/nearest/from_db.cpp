#include <string>
#include <vector>

#ifndef FROM_DB
#error "not compiled with the database's flags"
#endif
int count(const std::vector<std::string> &v) { return static_cast<int>(v.size()); }
