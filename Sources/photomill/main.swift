import ArgumentParser
import PhotoProcessing

// Must come before anything loads tesseract's OpenMP runtime into use.
OpenMP.restartSingleThreadedIfNeeded()
Photomill.main()
