# SPDX-License-Identifier: GPL-2.0
#[=======================================================================[.rst:
FindCpupower
------------

Find libcpupower, the library behind cpupower(1) (Debian: libcpupower-dev).
It ships no pkg-config file, so look for its header and library directly.

Imported target
^^^^^^^^^^^^^^^

``Cpupower::Cpupower``
  The libcpupower library, with its include directory.

Result variables
^^^^^^^^^^^^^^^^

``Cpupower_FOUND``
  True if both cpufreq.h and libcpupower were found.
``Cpupower_INCLUDE_DIRS``, ``Cpupower_LIBRARIES``
  Include directories and libraries to use it.

Cache variables
^^^^^^^^^^^^^^^

``Cpupower_INCLUDE_DIR``
  Directory holding ``cpufreq.h``.
``Cpupower_LIBRARY``
  Path to ``libcpupower.so``.
#]=======================================================================]

find_path(Cpupower_INCLUDE_DIR NAMES cpufreq.h
	DOC "Directory holding libcpupower's cpufreq.h")
find_library(Cpupower_LIBRARY NAMES cpupower
	DOC "libcpupower library")

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Cpupower
	REQUIRED_VARS Cpupower_LIBRARY Cpupower_INCLUDE_DIR)

if(Cpupower_FOUND)
	set(Cpupower_INCLUDE_DIRS "${Cpupower_INCLUDE_DIR}")
	set(Cpupower_LIBRARIES "${Cpupower_LIBRARY}")
	if(NOT TARGET Cpupower::Cpupower)
		add_library(Cpupower::Cpupower UNKNOWN IMPORTED)
		set_target_properties(Cpupower::Cpupower PROPERTIES
			IMPORTED_LOCATION "${Cpupower_LIBRARY}"
			INTERFACE_INCLUDE_DIRECTORIES "${Cpupower_INCLUDE_DIR}")
	endif()
endif()

mark_as_advanced(Cpupower_INCLUDE_DIR Cpupower_LIBRARY)
