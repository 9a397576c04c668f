// The engine's errors as Python exceptions, with the engine's messages: joco.Error, and below it
// joco.InputError (also a ValueError: bad input, the tools' exit code 3) and joco.SimulationError
// (also a RuntimeError: a failure while running, exit code 4).
#include <Python.h>

#include "bindings.h"
#include "common/tool.h"
#include "joco/error.h"

namespace joco::python {

namespace {

PyObject* new_exception(const char* name, PyObject* bases, const char* doc) {
  PyObject* type = PyErr_NewExceptionWithDoc(name, doc, bases, nullptr);
  if (!type) throw py::error_already_set();
  return type;
}

}  // namespace

void bind_errors(py::module_& mod) {
  // Created once per process and kept for the translator (module objects live as long).
  static PyObject* error = new_exception("joco.Error", PyExc_Exception, "An error of the engine.");
  static PyObject* input_error =
      new_exception("joco.InputError",
                    py::make_tuple(py::handle(error), py::handle(PyExc_ValueError)).release().ptr(),
                    "Bad input: an unreadable, malformed or inconsistent model, file or array.");
  static PyObject* simulation_error = new_exception(
      "joco.SimulationError",
      py::make_tuple(py::handle(error), py::handle(PyExc_RuntimeError)).release().ptr(),
      "A failure while running (a resource exhausted, a write error).");
  mod.attr("Error") = py::handle(error);
  mod.attr("InputError") = py::handle(input_error);
  mod.attr("SimulationError") = py::handle(simulation_error);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(input_error, e.what());
    } catch (const tools::UsageError& e) {
      PyErr_SetString(input_error, e.what());
    } catch (const joco::Error& e) {
      PyErr_SetString(simulation_error, e.what());
    }
  });
}

}  // namespace joco::python
