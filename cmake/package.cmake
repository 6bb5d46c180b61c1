# The installed C++ package (docs/installing.md): `cmake --install` puts
# libwarptlm.a (every model component's objects in one archive, without the
# sc_main stub: a platform brings its own sc_main), the headers under
# include/warptlm/, a CMake package (warptlm::warptlm) and warptlm.pc: the
# install component `development` (`python` is the Python package's).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_property(_components GLOBAL PROPERTY WARPTLM_STATIC_COMPONENTS)
set(_objects "")
foreach(c IN LISTS _components)
  list(APPEND _objects $<TARGET_OBJECTS:${c}>)
endforeach()
# The target is warptlm_library (the CLI is the target warptlm); the file is libwarptlm.a.
add_library(warptlm_library STATIC ${_objects})
set_target_properties(warptlm_library PROPERTIES LINKER_LANGUAGE CXX OUTPUT_NAME warptlm)
# The components' objects carry GCC's LTO code beside the machine code
# (WARPTLM_LTO); a platform linking the archive would have the linker plugin
# read all of it (a minute per link) and could not use another compiler's LTO.
# The installed archive keeps the machine code only.
if(WARPTLM_LTO_LINK)
  add_custom_command(TARGET warptlm_library POST_BUILD
    COMMAND ${CMAKE_OBJCOPY} --wildcard -R ".gnu.lto_*" -R ".gnu.debuglto_*"
            $<TARGET_FILE:warptlm_library>
    COMMENT "Removing the LTO sections from libwarptlm.a")
endif()

install(TARGETS warptlm_library ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
# include/warptlm/ holds the public entry header (models/warptlm/warptlm.h)
# beside the components' folders (gpu/gpu.h, ...); the package puts both
# include/ and include/warptlm/ on the include path, as the headers include
# each other by component path.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/models/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/warptlm
        COMPONENT development FILES_MATCHING PATTERN "*.h" PATTERN "warptlm" EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/models/warptlm/warptlm.h
              ${PROJECT_SOURCE_DIR}/models/warptlm/gpu_regs.h
              ${PROJECT_SOURCE_DIR}/models/warptlm/gpu_driver.h
              ${PROJECT_BINARY_DIR}/models/generated/warptlm_version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/warptlm COMPONENT development)

# Both files find the prefix relative to where they are installed, so the
# installed tree can be moved.
set(_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/warptlm)
file(RELATIVE_PATH WARPTLM_PREFIX_FROM_CONFIG /prefix/${_cmake_dir} /prefix)
file(RELATIVE_PATH WARPTLM_PREFIX_FROM_PC /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/warptlmConfig.cmake.in
               ${PROJECT_BINARY_DIR}/package/warptlmConfig.cmake @ONLY)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/warptlmConfigVersion.cmake
                                 VERSION ${WARPTLM_VERSION} COMPATIBILITY SameMinorVersion)
configure_file(${PROJECT_SOURCE_DIR}/cmake/warptlm.pc.in ${PROJECT_BINARY_DIR}/package/warptlm.pc
               @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/package/warptlmConfig.cmake
              ${PROJECT_BINARY_DIR}/package/warptlmConfigVersion.cmake
        DESTINATION ${_cmake_dir} COMPONENT development)
install(FILES ${PROJECT_BINARY_DIR}/package/warptlm.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)
