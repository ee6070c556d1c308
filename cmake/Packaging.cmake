# Installation (cmake --install, make install PREFIX=...) and the Debian
# package (cpack -G DEB). The layout is the build's: bin/torchtidy finds
# torchtidy-doctor beside it and the runtime shim in ../lib.
include(GNUInstallDirs)
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)

install(TARGETS torchtidy torchtidy-doctor RUNTIME DESTINATION bin)
install(TARGETS torchtidy_rt torchtidy-clang-tidy LIBRARY DESTINATION lib)
install(FILES integrations/cmake/torchtidy.cmake DESTINATION ${CMAKE_INSTALL_DATADIR}/torchtidy/cmake)
install(FILES integrations/ci/github-workflow.yml integrations/vscode/tasks.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/torchtidy/integrations)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME torchtidy)
set(CPACK_PACKAGE_VENDOR torchtidy)
set(CPACK_PACKAGE_CONTACT "torchtidy maintainers <torchtidy@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "static analyzer for LibTorch (PyTorch C++) code, with a runtime shim")
set(CPACK_PACKAGE_HOMEPAGE_URL ${TORCHTIDY_HOMEPAGE})
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The Clang 19 libraries it links and whose builtin headers it parses with,
# and the LibTorch the shim and the doctor are built against.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libclang-cpp19, libllvm19, libclang-common-19-dev, libtorch1.13, libhiredis0.14")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
include(CPack)
