#ifndef LIFESPEC_CGRAPHVIZ_SHIM_H
#define LIFESPEC_CGRAPHVIZ_SHIM_H
#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>
#endif
